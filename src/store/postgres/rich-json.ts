// JSON text for records that hold Maps and Buffers (ontology definitions): each is tagged with a key no
// seeded name can carry (it starts with U+0000, escaped by JSON.stringify), and rebuilt on the way out,
// so that a Map keeps its order and a Buffer its exact bytes.
const MAP = '\u0000map';
const BYTES = '\u0000b64';

export function encodeRich(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key]; // before toJSON: a Buffer is still a Buffer here
    if (raw instanceof Map) return { [MAP]: [...raw] };
    if (Buffer.isBuffer(raw)) return { [BYTES]: raw.toString('base64') };
    return v;
  });
}

export function decodeRich<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    if (MAP in o) return new Map(o[MAP] as Array<[unknown, unknown]>);
    if (BYTES in o) return Buffer.from(o[BYTES] as string, 'base64');
    return v;
  }) as T;
}
