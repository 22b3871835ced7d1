// objectSetChanged messages (docs/live-ontology.md): what moved in one set, queued to each of its subscribers,
// each object as that subscriber asked for it. The updates are serialized and encoded once per shape asked for
// (selected properties, rids or not), not once per subscriber: most subscribers of a set ask alike, and
// serializing was most of a delivery's cost. Each subscriber's message is its head's bytes, the shared
// updates' bytes and a brace, which its transport copies once into the frame it writes: no string is encoded
// again per subscriber.
import type { OntologyRecord, OntologyObjectRecord } from '../../../store/store.js';
import { objectWire } from '../object-reads/object-wire.js';
import { findObjectType } from '../context.js';
import type { Subscription } from './connection.js';
import type { MemberChange } from './watch.js';

/** Updates per objectSetChanged message: a reset of a large set goes out in several. */
const UPDATES_PER_MESSAGE = 500;
const CLOSE_BRACE = Buffer.from('}');

/** Per run: each object's wire JSON per shape asked for, shared by every set the object moved in. */
export type WireCache = Map<string, Map<OntologyObjectRecord, string>>;

/**
 * Bench only (EMULATOR_BENCH_STAMPS=1): each message also carries `benchTimes` [first change of the run marked,
 * run start, queued to this subscriber] in epoch ms, so the bench can tell the server's delay from the transit's.
 */
const STAMPS = process.env.EMULATOR_BENCH_STAMPS === '1';
const epochMs = () => performance.timeOrigin + performance.now();

/** When the run that delivers was asked for and began (epoch ms; for the bench's stamps). */
export interface RunTimes {
  changedAt: number;
  startedAt: number;
}

/** Queues the changes to every subscriber; returns the updates queued (changes times subscribers). */
export function deliverUpdates(
  ontology: OntologyRecord,
  subscribers: Iterable<Subscription>,
  changes: MemberChange[],
  wires: WireCache,
  times?: RunTimes,
): number {
  const byShape = new Map<string, Buffer[]>();
  let delivered = 0;
  for (const sub of subscribers) {
    const shape = (sub.shape ??= JSON.stringify([sub.request.propertySet, sub.request.loadRids]));
    let chunks = byShape.get(shape);
    if (chunks === undefined) byShape.set(shape, (chunks = serializedUpdates(ontology, sub, changes, wires)));
    // The same bytes as JSON.stringify({type, id, updates}).
    const head = (sub.head ??= Buffer.from(`{"type":"objectSetChanged","id":${JSON.stringify(sub.id)},"updates":`));
    // Pieces, not one buffer: the transport copies them once into what it writes (frames.ts).
    if (STAMPS && times) {
      const stamped = Buffer.from(
        `{"type":"objectSetChanged","id":${JSON.stringify(sub.id)},"benchTimes":[${times.changedAt},${times.startedAt},${epochMs()}],"updates":`,
      );
      for (const updates of chunks) sub.connection.enqueue([stamped, updates, CLOSE_BRACE]);
    } else for (const updates of chunks) sub.connection.enqueue([head, updates, CLOSE_BRACE]);
    delivered += changes.length;
  }
  return delivered;
}

/** The updates as UTF-8 JSON arrays of at most UPDATES_PER_MESSAGE; an object is serialized once per run and shape. */
function serializedUpdates(ontology: OntologyRecord, sub: Subscription, changes: MemberChange[], wires: WireCache): Buffer[] {
  const select = sub.request.propertySet.length ? new Set(sub.request.propertySet) : undefined;
  let wire = wires.get(sub.shape!);
  if (!wire) wires.set(sub.shape!, (wire = new Map()));
  const chunks: Buffer[] = [];
  for (let i = 0; i < changes.length; i += UPDATES_PER_MESSAGE) {
    const updates: string[] = [];
    for (const c of changes.slice(i, i + UPDATES_PER_MESSAGE)) {
      let object = wire.get(c.record);
      if (object === undefined) {
        const type = findObjectType(ontology, c.record.objectType);
        wire.set(c.record, (object = JSON.stringify(objectWire(ontology.rid, type, c.record, { select, excludeRid: !sub.request.loadRids }))));
      }
      // The same bytes as JSON.stringify({type, state, object}).
      updates.push(`{"type":"object","state":"${c.state}","object":${object}}`);
    }
    chunks.push(Buffer.from(`[${updates.join(',')}]`));
  }
  return chunks;
}
