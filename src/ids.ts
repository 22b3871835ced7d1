// Identifiers. Seeded entities get ids derived from their seed key, so a restart or a reset hands out the
// same ids and RIDs again (tests can rely on them); ids made at run time are random.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** A UUID with the v4 layout whose bits come from a hash of `key`: stable across runs. */
export function stableUuid(key: string): string {
  const bytes = createHash('sha256').update(key).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const randomUuid = (): string => randomUUID();

/** 256 random bits as base64url: 43 characters. */
export const randomSecret = (): string => randomBytes(32).toString('base64url');
