// The subscription protocol's messages (docs/live-ontology.md), as @osdk/foundry.ontologies 2.57.0 types them
// (ObjectSetStreamSubscribeRequests, StreamMessage) and @osdk/client's ObjectSetListenerWebsocket sends and
// reads them. A client message carries no `type`; every server message does.
import { EmulatorError, PlatformError } from '../../../errors.js';

export interface SubscribeRequest {
  objectSet: unknown;
  /** Property api names to send; empty: every property. */
  propertySet: string[];
  /** Reference properties (geotime series): not served here; a request naming any is refused. */
  referenceSet: string[];
  loadRids: boolean;
}

export interface SubscribeMessage {
  id: string;
  requests: SubscribeRequest[];
}

export interface WireError {
  error: string;
  args: Array<{ name: string; value: string }>;
}

export type SubscribeResponse = { type: 'success'; id: string } | { type: 'error'; errors: WireError[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** A client message, or the plain-words problem with it. `id` is kept when it can be read, for the answer. */
export function parseSubscribe(text: string): { message: SubscribeMessage } | { problem: string; id: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { problem: 'the message is not JSON', id: '' };
  }
  if (!isRecord(raw)) return { problem: 'the message must be a JSON object {id, requests}', id: '' };
  const id = typeof raw.id === 'string' ? raw.id : '';
  if (typeof raw.id !== 'string' || raw.id === '') return { problem: 'the message needs a string `id`', id };
  if (!Array.isArray(raw.requests)) return { problem: '`requests` must be a list', id };
  const requests: SubscribeRequest[] = [];
  for (const [i, r] of raw.requests.entries()) {
    if (!isRecord(r) || !isRecord(r.objectSet)) return { problem: `requests[${i}] needs an \`objectSet\` object`, id };
    const propertySet = r.propertySet ?? [];
    const referenceSet = r.referenceSet ?? [];
    if (!strings(propertySet)) return { problem: `requests[${i}].propertySet must be a list of property names`, id };
    if (!strings(referenceSet)) return { problem: `requests[${i}].referenceSet must be a list of property names`, id };
    const options = isRecord(r.objectLoadingResponseOptions) ? r.objectLoadingResponseOptions : {};
    requests.push({ objectSet: r.objectSet, propertySet, referenceSet, loadRids: options.shouldLoadObjectRids === true });
  }
  return { message: { id, requests } };
}

/** A failure as the subscription protocol's Error {error, args}. */
export function wireError(err: unknown): WireError {
  if (err instanceof PlatformError)
    return {
      error: err.errorName,
      args: Object.entries(err.parameters).map(([name, value]) => ({ name, value: typeof value === 'string' ? value : JSON.stringify(value) })),
    };
  if (err instanceof EmulatorError) return { error: err.name, args: [] };
  return { error: 'InternalError', args: [] };
}

export const errorOf = (error: string, args: Record<string, string> = {}): WireError => ({
  error,
  args: Object.entries(args).map(([name, value]) => ({ name, value })),
});

/** The answer to a message that could not be read: one error per request it seemed to hold (at least one). */
export function refusedMessage(id: string, count: number, error: WireError): string {
  const responses: SubscribeResponse[] = Array.from({ length: Math.max(1, count) }, () => ({ type: 'error', errors: [error] }));
  return JSON.stringify({ type: 'subscribeResponses', id, responses });
}
