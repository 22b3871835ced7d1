// Identifiers. Seeded entities get ids derived from their seed key, so a restart or a reset hands out the
// same ids and RIDs again (tests can rely on them); ids made at run time are random.
import { createHash, randomFillSync, randomUUID } from 'node:crypto';

/** A UUID with the v4 layout whose bits come from a hash of `key`: stable across runs. */
export function stableUuid(key: string): string {
  const bytes = createHash('sha256').update(key).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const randomUuid = (): string => randomUUID();

const SECRET_BYTES = 32;
// Random bytes are drawn from the CSPRNG in blocks and each byte is handed out once, as Node's own
// randomUUID does: one call into OpenSSL per 128 secrets instead of one per secret (the token endpoint's
// profile showed a tenth of its CPU there).
const pool = Buffer.alloc(SECRET_BYTES * 128);
let offset = pool.length;

/** 256 random bits as base64url: 43 characters. */
export function randomSecret(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const secret = pool.toString('base64url', offset, offset + SECRET_BYTES);
  offset += SECRET_BYTES;
  return secret;
}
