// CSV files learned at upload (docs/datasets.md, "CSV files learned at upload"): whatever the learning says a
// column fits, the first read's byte scan proves (random files, cut anywhere); files it cannot walk are learned
// nothing of; a large upload through the routes is learned, so that its first passthrough read sends it as a file
// known to fit, while a schema the file does not fit still answers the read's error.
import { describe, expect, it } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { familyFits, profileFits } from '../../src/services/datasets/table/csv-learn.js';
import { ProfileFeed } from '../../src/services/datasets/table/csv-learn-feed.js';
import { learnStats, learnedFits } from '../../src/services/datasets/table/csv-learner.js';
import { scanRecords } from '../../src/services/datasets/table/csv-scan.js';
import { fitKey, knownFits, planColumns } from '../../src/services/datasets/table/read-table.js';
import { acquire, lend, release, returned } from '../../src/services/datasets/table/worker-threads.js';
import type { DatasetSchema } from '../../src/services/datasets/model.js';
import { datasetsApp, json, uploadFile } from './helpers.js';

const TYPES = ['STRING', 'DOUBLE', 'FLOAT', 'LONG', 'INTEGER', 'SHORT', 'BYTE', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'DECIMAL'];
const schemaOf = (names: string[], types: string[]): DatasetSchema => ({
  fieldSchemaList: names.map((name, i) => ({ name, type: types[i]!, nullable: true })) as DatasetSchema['fieldSchemaList'],
});
const columnsOf = (schema: DatasetSchema) => {
  const planned = planColumns(schema, []);
  if (!Array.isArray(planned)) throw new Error(planned.problem);
  return planned;
};

/** The profile of `text` fed in pieces cut at `cuts` (offsets), or undefined. */
function learn(text: Buffer, cuts: number[] = []) {
  const feed = new ProfileFeed();
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < text.length).sort((a, b) => a - b), text.length]) {
    feed.push(text.subarray(at, cut));
    at = cut;
  }
  return feed.end();
}

/** A seeded generator of cells of every family, near-misses, empty and quoted cells. */
function generator(seed: number) {
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(next() * 10))).join('');
  const families: Array<() => string> = [
    () => `${pick(['', '-', '+'])}${digits(1 + Math.floor(next() * 20))}`,
    () => `${pick(['', '-'])}${digits(1 + Math.floor(next() * 6))}.${digits(Math.floor(next() * 5))}${pick(['', 'e5', 'E-3', 'e'])}`,
    () => pick(['true', 'false', 'TRUE', 'True', 'tru']),
    () => `20${digits(2)}-${pick(['01', '02', '12', '13', '00'])}-${pick(['01', '15', '28', '29', '31', '32'])}`,
    () =>
      `2026-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}T${pick(['00', '12', '23', '24'])}:${pick(['00', '59', '60'])}${pick(['', ':30', ':30.123', ':30.1234'])}${pick(['', 'Z', '+05:30', '-25:00'])}`,
    () => pick(['abc', 's1', 'x y', ' 12', 'NaN', '1e400', '€uro']),
  ];
  const cell = (family: number): string => {
    const roll = next();
    if (roll < 0.04) return '';
    if (roll < 0.05) return `"${families[family]!().replaceAll('"', '""')}"`;
    if (roll < 0.06) return pick(['""', '"a,b"', '"line\nbreak"', '"say ""hi"""']);
    if (roll < 0.08) return families[Math.floor(next() * families.length)]!();
    return families[family]!();
  };
  return { next, pick, cell, familyCount: families.length };
}

/** A random CSV file: a header row, then rows whose columns each lean to one family. */
function randomFile(seed: number): { text: Buffer; names: string[] } {
  const g = generator(seed);
  const width = 1 + Math.floor(g.next() * 4);
  const names = Array.from({ length: width }, (_, i) => `c${i}`);
  const leans = names.map(() => Math.floor(g.next() * g.familyCount));
  const lines = [names.join(',')];
  const rows = 1 + Math.floor(g.next() * 30);
  for (let r = 0; r < rows; r++) lines.push(leans.map((f) => g.cell(f)).join(','));
  const end = g.pick(['\n', '\r\n']);
  return { text: Buffer.from(lines.join(end) + g.pick([end, ''])), names };
}

describe('what a CSV upload is learned to fit', () => {
  it('is always proven by the byte scan, however the file is cut', () => {
    let claims = 0;
    for (let seed = 1; seed <= 3_000; seed++) {
      const { text, names } = randomFile(seed);
      const g = generator(seed * 7 + 3);
      const cuts = Array.from({ length: Math.floor(g.next() * 6) }, () => Math.floor(g.next() * text.length));
      const whole = learn(text);
      const cut = learn(text, cuts);
      // The same knowledge whether the bytes came at once or in pieces.
      expect(cut && { names: cut.names, family: [...cut.family], digits: [...cut.digits] }, `seed ${seed}`).toEqual(
        whole && { names: whole.names, family: [...whole.family], digits: [...whole.digits] },
      );
      if (!whole) continue;
      // Every column given a type the profile claims (one at random among them): the scan proves every record.
      const types = names.map((_, i) => {
        const fitting = TYPES.filter((t) => familyFits(whole.family[i]!, whole.digits[i]!, t));
        return fitting[Math.floor(g.next() * fitting.length)]!;
      });
      if (types.some((t) => t !== 'STRING')) claims += 1;
      const schema = schemaOf(names, types);
      expect(profileFits(whole, columnsOf(schema))).toBe(true);
      const body = Buffer.concat([text.subarray(text.indexOf(10) + 1), text[text.length - 1] === 10 ? Buffer.alloc(0) : Buffer.from('\n')]);
      const scan = scanRecords(body, 0, body.length, columnsOf(schema));
      expect({ seed, types, end: scan.end, stop: scan.stop }).toEqual({ seed, types, end: body.length, stop: 'more' });
    }
    // The files are not all learned as text: the property was tested on real claims.
    expect(claims).toBeGreaterThan(500);
  });

  it('learns the plain families and the most digits of an integer column', () => {
    const text = Buffer.from('\ufeffid,price,ok,day,at,name\r\n1,2.5,true,2026-01-02,2026-01-02T03:04:05Z,a\r\n-1234,,false,,2026-01-02T03:04Z,"b, c"\r\n');
    const profile = learn(text)!;
    expect(profile.names).toEqual(['id', 'price', 'ok', 'day', 'at', 'name']);
    const fits = (types: string[]) => profileFits(profile, columnsOf(schemaOf(profile.names, types)));
    expect(fits(['SHORT', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'STRING'])).toBe(true);
    expect(fits(['INTEGER', 'DOUBLE', 'STRING', 'STRING', 'STRING', 'STRING'])).toBe(true);
    // A decimal may carry an exponent past float32's range: a FLOAT column of decimals is proven by its scan only.
    expect(fits(['INTEGER', 'FLOAT', 'STRING', 'STRING', 'STRING', 'STRING'])).toBe(false);
    expect(fits(['FLOAT', 'DOUBLE', 'STRING', 'STRING', 'STRING', 'STRING'])).toBe(true);
    // Four digits do not fit a BYTE; a decimal is no LONG; a timestamp no DATE; a quoted text cell only STRING.
    expect(fits(['BYTE', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'STRING'])).toBe(false);
    expect(fits(['LONG', 'LONG', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'STRING'])).toBe(false);
    expect(fits(['LONG', 'DOUBLE', 'BOOLEAN', 'DATE', 'DATE', 'STRING'])).toBe(false);
    expect(fits(['LONG', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'LONG'])).toBe(false);
    // DECIMAL cells are proven only by their check: never claimed.
    expect(fits(['LONG', 'DECIMAL', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'STRING'])).toBe(false);
    // Another header, or the columns in another order, is not this file's passthrough.
    expect(
      profileFits(
        profile,
        columnsOf(
          schemaOf(
            ['price', 'id', 'ok', 'day', 'at', 'name'],
            TYPES.slice(0, 6).map(() => 'STRING'),
          ),
        ),
      ),
    ).toBe(false);
  });

  it('learns nothing of a file it cannot walk', () => {
    for (const text of [
      'a,b\n1,x"y\n', // a quote inside an unquoted cell
      'a,b\n1,2,3\n', // a ragged line
      'a,b\n1\n',
      'a,"b"\n1,2\n', // a quoted header
      'a,b', // no header row's end
      'a,b\n1,"open\n',
    ])
      expect(learn(Buffer.from(text)), JSON.stringify(text)).toBeUndefined();
    expect(learn(Buffer.concat([Buffer.from('a,b\n1,'), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]))).toBeUndefined();
    // A whole file of empty cells fits every plain type; blank lines are no records.
    const empty = learn(Buffer.from('a,b\n,\n\n,\n'))!;
    expect(profileFits(empty, columnsOf(schemaOf(['a', 'b'], ['LONG', 'TIMESTAMP'])))).toBe(true);
  });
});

describe('a CSV upload through the routes', () => {
  /** About 8.5 MB: past the size from which uploads are learned. */
  function largeCsv(): string {
    const lines = ['sensor,value,count,ok,at'];
    for (let i = 0; i < 185_000; i++) lines.push(`s${i % 50},${(i / 3).toFixed(4)},${i},${i % 2 === 0},2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`);
    return `${lines.join('\n')}\n`;
  }
  const SCHEMA = schemaOf(['sensor', 'value', 'count', 'ok', 'at'], ['STRING', 'DOUBLE', 'LONG', 'BOOLEAN', 'TIMESTAMP']);

  it('is learned while it arrives: its first read sends it as known to fit, and a schema it does not fit is still refused', async () => {
    const t = await datasetsApp();
    const text = largeCsv();
    const rid = (await json(t, 'POST', '/api/v2/datasets', { name: 'learned', parentFolderRid: 'ri.compass.main.folder.x' })).body.rid as string;
    const before = learnStats.learned;
    const small = await uploadFile(t, rid, 'small.csv', 'sensor,value,count,ok,at\ns1,1.5,1,true,2026-01-01T00:00:00Z\n', '?transactionType=SNAPSHOT');
    expect(small.status).toBe(200);
    const up = await uploadFile(t, rid, 'big.csv', text, '?transactionType=SNAPSHOT');
    expect(up.status).toBe(200);
    const blobId = (await t.store.part((await import('../../src/services/datasets/part.js')).DATASETS).files([up.body.transactionRid as string]))[0]!.blobId!;
    // The learning finishes in the worker after the upload answered; a read waits for it (learnedFits).
    const columns = columnsOf(SCHEMA);
    await learnedFits([blobId], columns);
    // One file learned: the small one is under the size learned from.
    expect(learnStats.learned).toBe(before + 1);
    expect(knownFits.has(fitKey(blobId, columns))).toBe(true);
    expect((await json(t, 'PUT', `/api/v2/datasets/${rid}/putSchema`, { schema: SCHEMA })).status).toBe(200);
    const read = await t.app.inject({ method: 'GET', url: `/api/v2/datasets/${rid}/readTable?format=CSV`, headers: t.auth });
    expect(read.statusCode).toBe(200);
    expect(read.body).toBe(text);
    // A schema the profile does not fit is not known to fit: the read checks, and names the first bad cell.
    const wrong = schemaOf(['sensor', 'value', 'count', 'ok', 'at'], ['STRING', 'LONG', 'LONG', 'BOOLEAN', 'TIMESTAMP']);
    await learnedFits([blobId], columnsOf(wrong));
    expect(knownFits.has(fitKey(blobId, columnsOf(wrong)))).toBe(false);
    expect((await json(t, 'PUT', `/api/v2/datasets/${rid}/putSchema`, { schema: wrong })).status).toBe(200);
    const refused = await t.app.inject({ method: 'GET', url: `/api/v2/datasets/${rid}/readTable?format=CSV`, headers: t.auth });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ errorName: 'ReadTableError' });
    expect(JSON.stringify(refused.json())).toContain('big.csv line 2, column \\"value\\"');
  }, 60_000);

  it('gives its worker back when a read needs it', async () => {
    // Every worker the pool may start lent to learnings; a read asking for one then gets one back.
    const lent: Worker[] = [];
    let asked = 0;
    for (;;) {
      const worker: Worker | undefined = lend(() => {
        asked += 1;
        returned(worker!);
        release(worker!);
      });
      if (!worker) break;
      lent.push(worker);
    }
    expect(lent.length).toBeGreaterThan(0);
    const taken = await acquire();
    expect(asked).toBe(1);
    expect(lent).toContain(taken);
    release(taken!);
    for (const worker of lent)
      if (worker !== taken) {
        returned(worker);
        release(worker);
      }
  }, 30_000);
});

describe('files known to fit', () => {
  it('are known by the schema type too: a file proven as STRING is not proven as DECIMAL (both Utf8)', () => {
    const text = columnsOf(schemaOf(['a'], ['STRING']));
    const decimal = columnsOf(schemaOf(['a'], ['DECIMAL']));
    expect(String(text[0]!.type)).toBe(String(decimal[0]!.type));
    expect(fitKey('blob', text)).not.toBe(fitKey('blob', decimal));
  });
});
