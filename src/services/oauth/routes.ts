// The OAuth 2.0 authorization server (SPEC §4.1, §5; docs/contracts.md §2).
// Known deviations from the real platform:
// - Sign-in has no credentials: the user picks a seeded human user (SPEC §5 rule 3).
// - No OpenID Connect: no id_token, no userinfo, no /.well-known/openid-configuration; RFC 8414 metadata only.
// - Authorize errors are always an HTML page, never a redirect carrying `error` (docs/contracts.md §2).
// - Refresh tokens live 24 hours (the spec leaves this open); stored state is in memory unless another
//   store is configured.
import { startSweeper, sweepExpired } from './sweeper.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HtmlError, invalidRequest } from '../../errors.js';
import { errorFamily } from '../../http/route-config.js';
import { randomSecret } from '../../ids.js';
import { JOINED_FORM_FIELDS, RepeatedParameter, queryOf, singleValued, type Params } from './params.js';
import { validateAuthorizeRequest } from './authorize-request.js';
import { finishSignIn, signInUser, startSignIn } from './sign-in.js';
import { issueCode } from './codes.js';
import { CALLBACK_PATH, renderSignInPage, signInCsp } from './signin-page.js';
import { token } from './token-endpoint.js';
import { NO_STORE_HEADERS, tokenLaneAnswer, tokenLaneJsonRefusal } from './token-lane.js';
import { actsAs } from './access-tokens.js';
import { introspect, revoke } from './revocation.js';
import { METADATA_PATH, OAUTH_BASE, issuerOf, metadata } from './metadata.js';
import { rejectOtherMediaTypes } from '../../http/body-parsers.js';
import type { OAuthDeps, TokenDeps } from './deps.js';
import type { ServiceDeps } from '../service-module.js';

/** Binds a sign-in form to the browser that loaded the page. */
const SIGN_IN_COOKIE = 'platform_signin';
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

function signInCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === SIGN_IN_COOKIE && value && COOKIE_VALUE.test(value)) return value;
  }
  return undefined;
}

function repeatedError(request: FastifyRequest, err: RepeatedParameter) {
  return errorFamily(request.url, request.server.pathPolicies) === 'html' ? new HtmlError('Invalid request', err.message) : invalidRequest(err.message);
}

function parseParams(request: FastifyRequest, encoded: string, joined: readonly string[] = []): Params {
  try {
    return singleValued(encoded, joined);
  } catch (err) {
    throw err instanceof RepeatedParameter ? repeatedError(request, err) : err;
  }
}

/** The parsed form of a POST; an empty or absent body counts as no parameters. */
const formOf = (request: FastifyRequest): Params => (request.body as Params | undefined) ?? {};

const noStore = (reply: FastifyReply) => reply.header(NO_STORE_HEADERS[0]!, NO_STORE_HEADERS[1]!).header(NO_STORE_HEADERS[2]!, NO_STORE_HEADERS[3]!);

export function oauthRoutes(app: FastifyInstance, deps: OAuthDeps & Pick<ServiceDeps, 'services'>): void {
  // Every scope a served service checks (SPEC §5's matrix and what later services add), in service order.
  const tokenDeps: TokenDeps = { ...deps, scopeMatrix: [...new Set(deps.services.flatMap((s) => s.scopes ?? []))] };
  // Expired codes, sign-ins and tokens leave the store on a timer, stopped with the app.
  const stopSweeper = startSweeper(deps.store, deps.clock);
  app.addHook('onClose', async () => stopSweeper());
  app.onClockMoved(() => sweepExpired(deps.store, deps.clock));
  app.get(METADATA_PATH, async () => metadata(app.publicUrl()));

  app.register(async (scope) => {
    // Only forms here; any other content type is a 415, rendered as invalid_request (or the HTML page).
    scope.removeAllContentTypeParsers();
    rejectOtherMediaTypes(scope);
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
      try {
        done(null, parseParams(request, body as string, JOINED_FORM_FIELDS));
      } catch (err) {
        done(err as Error, undefined);
      }
    });

    // No automatic HEAD: it would run this handler and store a pending sign-in nobody sees (issue 10).
    scope.get(`${OAUTH_BASE}/authorize`, { exposeHeadRoute: false }, async (request, reply) => {
      const valid = await validateAuthorizeRequest(deps.store, parseParams(request, queryOf(request.url)));
      noStore(reply).header('X-Frame-Options', 'DENY').header('Referrer-Policy', 'no-referrer');
      if (valid.loginHint !== undefined) {
        const user = await signInUser(deps.store, valid.loginHint);
        return reply.redirect(await issueCode(deps, valid, user), 302);
      }
      let browserId = signInCookie(request);
      if (!browserId) {
        browserId = randomSecret();
        const secure = request.protocol === 'https' ? '; Secure' : '';
        reply.header('Set-Cookie', `${SIGN_IN_COOKIE}=${browserId}; Path=${OAUTH_BASE}/authorize; HttpOnly; SameSite=Lax${secure}`);
      }
      const pending = await startSignIn(deps, valid, browserId);
      const nonce = randomSecret();
      const users = await deps.store.users.listActiveHumans();
      return reply
        .header('Content-Security-Policy', signInCsp(nonce))
        .type('text/html; charset=utf-8')
        .send(renderSignInPage({ request: pending, clientName: valid.clientName, users, nonce }));
    });

    scope.post(CALLBACK_PATH, async (request, reply) => {
      const location = await finishSignIn(deps, formOf(request), signInCookie(request));
      return noStore(reply).redirect(location, 302);
    });

    // client_credentials, and refusals made before a grant changes anything, are answered in front of the
    // framework (src/http/fast-lane.ts, ./token-lane.ts); everything else reaches the route below, its body replayed.
    app.addFastLane({
      kind: 'form-post',
      path: `${OAUTH_BASE}/token`,
      answer: (form, authorization) => tokenLaneAnswer(tokenDeps, form, authorization, app.journal.capacity > 0),
      jsonRefusal: tokenLaneJsonRefusal,
    });
    // Not async: a request refused before any store call throws synchronously (see token()).
    // The journal names the user a token acts as (a client_credentials token's service user too).
    scope.post(`${OAUTH_BASE}/token`, (request, reply) =>
      token(tokenDeps, request.headers.authorization, formOf(request)).then((response) => {
        if (app.journal.capacity > 0) request.journalUsername = actsAs(response) ?? null;
        return noStore(reply).send(response);
      }),
    );

    scope.post(`${OAUTH_BASE}/revoke_token`, async (request, reply) => {
      await revoke(deps, request.headers.authorization, formOf(request));
      return noStore(reply).code(200).send();
    });

    scope.post(`${OAUTH_BASE}/introspect`, async (request, reply) => {
      const answer = await introspect(deps, issuerOf(app.publicUrl()), request.headers.authorization, formOf(request));
      return noStore(reply).send(answer);
    });
  });
}
