// The 401s a bearer route answers most, shared by the auth hook (src/http/auth.ts) and the getCurrent fast lane
// (src/http/fast-lane.ts), which must refuse with the same words. A refusal is answered rather than thrown: the
// framework's error path (error handler lookup, onError hooks) and a throw per request made a 401 cost more CPU
// than serving the request. One shared, immutable value stands for each.
import { Unauthenticated } from '../errors.js';

const unauthenticated = (reason: string) => {
  const err = new Unauthenticated().because(reason);
  Object.freeze(err.headers);
  return Object.freeze(err);
};

export const NO_TOKEN = unauthenticated('No bearer token: the route expects an "Authorization: Bearer <access token>" header.');
export const UNKNOWN_TOKEN = unauthenticated(
  'The bearer token is not one this service knows: never issued here, revoked, expired and swept, or forgotten by a reset.',
);
export const EXPIRED_TOKEN = unauthenticated('The bearer token has expired; get a new one (refresh it, or sign in again).');
export const NO_USER = unauthenticated('The bearer token belongs to a user that no longer exists.');
