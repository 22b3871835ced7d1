// PKCE (RFC 7636): challenge checks at authorize, verifier checks at the token endpoint.
import { createHash } from 'node:crypto';
import { safeEqual } from '../../http/auth.js';
import type { PkceChallenge } from '../../store/store.js';
import { named } from './reasons.js';

/** 43-128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~" (RFC 7636 §4.1). */
const UNRESERVED_43_128 = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A base64url SHA-256 digest without padding is exactly 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

type ChallengeCheck = { challenge?: PkceChallenge } | { problem: string };

/** Validates the authorize parameters; the method defaults to `plain` when a challenge comes alone (§4.3). */
export function checkChallenge(challenge: string | undefined, method: string | undefined): ChallengeCheck {
  if (challenge === undefined) {
    return method === undefined ? {} : { problem: 'code_challenge_method was given without a code_challenge.' };
  }
  const m = method ?? 'plain';
  if (m !== 'S256' && m !== 'plain') return { problem: `${named('code_challenge_method', m)} is not supported; use S256 or plain.` };
  if (!UNRESERVED_43_128.test(challenge)) return { problem: 'code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" or "~".' };
  if (m === 'S256' && !S256_CHALLENGE.test(challenge))
    return { problem: 'An S256 code_challenge is the 43-character base64url SHA-256 digest of the verifier.' };
  return { challenge: { value: challenge, method: m } };
}

/** Null when the verifier fits the challenge, else why not (each reason is an invalid_grant). */
export function verifierProblem(challenge: PkceChallenge | undefined, verifier: string | undefined): string | null {
  if (!challenge) return verifier === undefined ? null : 'code_verifier was sent but the authorization request had no code_challenge.';
  if (verifier === undefined) return 'code_verifier is required: the authorization request had a code_challenge.';
  if (!UNRESERVED_43_128.test(verifier)) return 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" or "~".';
  const derived = challenge.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return safeEqual(derived, challenge.value) ? null : 'code_verifier does not match the code_challenge.';
}
