// Live object sets across instances on one PostgreSQL (docs/live-ontology.md): a subscriber on instance A hears
// an action applied on B and a control-route edit made on B, through the store's LISTEN/NOTIFY hint with the
// objects table as the truth; and a reset on B reaches A's subscriber.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '@osdk/client';
import { startEmulator, type Emulator } from '../../src/index.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { baseUrl } from './helpers.js';
import { controlToken } from '../clients/conformance-helpers.js';
import { ACME_RID, ACME_SEED } from '../ontologies/fixture.js';
import { promoteEmployee } from '../clients/osdk-typed-definitions.js';
import { employees, record } from '../live/helpers.js';

const started: Emulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close().catch(() => undefined)));
});

describe('live object sets across instances', () => {
  it('a subscriber on A hears actions, control-route edits and a reset made on B', async () => {
    const store = freshSchemaUrl(baseUrl());
    const [a, b] = await Promise.all([startEmulator({ seed: ACME_SEED, store }), startEmulator({ seed: ACME_SEED, store })]);
    started.push(a, b);
    const token = await controlToken(a.url, 'dev', ['api:ontologies-read', 'api:ontologies-write']);
    const onA = createClient(a.url, ACME_RID, async () => token);
    const onB = createClient(b.url, ACME_RID, async () => token);
    const rec = record(employees(onA).where({ title: 'Engineer' }));
    await rec.ready;
    const t0 = performance.now();
    await onB(promoteEmployee).applyAction({ employee: 4, newTitle: 'Engineer' });
    const added = await rec.next((s) => s.pk === 4 && s.state === 'ADDED_OR_UPDATED');
    expect(added.at - t0).toBeLessThan(1000);
    await b.putObject('acme', 'Employee', 2, { fullName: 'Bob Brown', title: 'Manager' });
    await rec.next((s) => s.pk === 2 && s.state === 'REMOVED');
    await b.reset();
    await rec.next((s) => s.pk === 4 && s.state === 'REMOVED');
    await rec.next((s) => s.pk === 2 && s.state === 'ADDED_OR_UPDATED');
    await rec.unsubscribe();
  });
});
