// The interactive part of the code flow: a validated authorize request is stored and the sign-in page
// refers to it by id; the form comes back with that id, the chosen username and a CSRF token, from the
// browser that holds the matching sign-in cookie.
import type { AuthorizeRequestRecord, Store, UserRecord } from '../../store/store.js';
import { HtmlError } from '../../errors.js';
import { randomSecret } from '../../ids.js';
import { safeEqual } from '../../http/auth.js';
import type { ValidAuthorizeRequest } from './authorize-request.js';
import { issueCode } from './codes.js';
import type { Params } from './params.js';
import { named, quote } from './reasons.js';
import type { OAuthDeps } from './deps.js';
import { oauthLimitsOf } from './caps.js';

/** How long a sign-in page stays usable. */
const SIGN_IN_TTL_MS = 30 * 60 * 1000;

/** A user who may sign in: seeded, active and human (service users never pick an identity on a page). */
export async function signInUser(store: Store, username: string): Promise<UserRecord> {
  const user = await store.users.byUsername(username);
  if (!user || user.principalType !== 'human') throw new HtmlError('Unknown user', `There is no human user with ${named('username', username)} to sign in as.`);
  if (!user.active) throw new HtmlError('User deactivated', `The user ${quote(username)} is deactivated and cannot sign in.`);
  return user;
}

export async function startSignIn(deps: OAuthDeps, request: ValidAuthorizeRequest, browserId: string): Promise<AuthorizeRequestRecord> {
  const { clientId, redirectUri, scopes, state, codeChallenge } = request;
  const record: AuthorizeRequestRecord = {
    clientId,
    redirectUri,
    scopes,
    state,
    codeChallenge,
    id: randomSecret(),
    csrfToken: randomSecret(),
    browserId,
    expiresAt: deps.clock.now() + SIGN_IN_TTL_MS,
  };
  // Past the cap the oldest pending sign-in is forgotten: refusing instead would let anyone (authorize needs no
  // credentials) lock every real sign-in out for the 30 minutes a request is kept.
  await deps.store.oauth.saveAuthorizeRequest(record, oauthLimitsOf(deps.seed).maxPendingSignIns);
  return record;
}

const EXPIRED = new HtmlError('Sign-in expired', 'This sign-in page has expired or was already used. Go back to the application and sign in again.');
const FORGED = new HtmlError(
  'Sign-in rejected',
  'The sign-in form did not come from this browser’s sign-in page. Go back to the application and sign in again.',
);

/** Checks a submitted sign-in form and returns the redirect carrying the new code. */
export async function finishSignIn(deps: OAuthDeps, form: Params, browserId: string | undefined): Promise<string> {
  const { request_id: requestId, csrf_token: csrfToken, username } = form;
  if (requestId === undefined || csrfToken === undefined || username === undefined) {
    throw new HtmlError('Incomplete sign-in form', 'The sign-in form must carry request_id, csrf_token and username.');
  }
  const pending = await deps.store.oauth.findAuthorizeRequest(requestId);
  if (!pending || pending.expiresAt <= deps.clock.now()) throw EXPIRED;
  if (!browserId || !safeEqual(browserId, pending.browserId) || !safeEqual(csrfToken, pending.csrfToken)) throw FORGED;
  const user = await signInUser(deps.store, username);
  // Taken only now, so a wrong pick (a deactivated user) leaves the page usable for another choice.
  if (!(await deps.store.oauth.takeAuthorizeRequest(requestId))) throw EXPIRED;
  return issueCode(deps, pending, user);
}
