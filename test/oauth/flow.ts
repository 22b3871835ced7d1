// Helpers for driving the OAuth endpoints in process, the way a browser and a client would.
import { createHash } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
export const AUTHORIZE = '/idp/api/oauth2/authorize';
export const CALLBACK = '/idp/api/oauth2/authorize/callback';
export const TOKEN = '/idp/api/oauth2/token';

export const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
});

export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
export const VERIFIER = 'a'.repeat(20) + '-._~' + 'Z9'.repeat(10); // 44 unreserved characters

export function postForm(app: FastifyInstance, url: string, params: Record<string, string>, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url, headers: { ...FORM, ...headers }, payload: new URLSearchParams(params).toString() });
}

export const authorizeUrl = (params: Record<string, string>) => `${AUTHORIZE}?${new URLSearchParams(params)}`;

/** The hidden fields and cookie of a rendered sign-in page. */
export function signInForm(page: LightMyRequestResponse): { requestId: string; csrf: string; cookie: string } {
  expect(page.statusCode).toBe(200);
  const requestId = /name="request_id" value="([^"]+)"/.exec(page.body)?.[1];
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1];
  const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0]!;
  if (!requestId || !csrf || !cookie) throw new Error('not a sign-in page');
  return { requestId, csrf, cookie };
}

/** Opens the page and picks `username`; returns the callback's response. */
export async function pickUser(app: FastifyInstance, params: Record<string, string>, username: string) {
  const page = await app.inject({ url: authorizeUrl(params) });
  const form = signInForm(page);
  return postForm(app, CALLBACK, { request_id: form.requestId, csrf_token: form.csrf, username }, { cookie: form.cookie });
}

/** A code through the page; `params` are the authorize query. */
export async function codeFor(app: FastifyInstance, params: Record<string, string>, username = 'admin'): Promise<string> {
  const res = await pickUser(app, params, username);
  expect(res.statusCode).toBe(302);
  const code = new URL(String(res.headers.location)).searchParams.get('code');
  if (!code) throw new Error(`no code in ${String(res.headers.location)}`);
  return code;
}

export function expectOAuthError(res: LightMyRequestResponse, status: number, error: string): string {
  expect({ status: res.statusCode, error: res.json().error }).toEqual({ status, error });
  expect(Object.keys(res.json()).sort()).toEqual(['error', 'error_description']);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers.pragma).toBe('no-cache');
  return res.json().error_description as string;
}

export function expectHtmlError(res: LightMyRequestResponse, title: RegExp): void {
  expect(res.statusCode).toBe(400);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers.location).toBeUndefined();
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.body).toMatch(title);
}
