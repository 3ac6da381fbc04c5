// How the OAuth fixture's endpoints read forms and answer (not exported from the package).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './node-bridge.js';

/** Form and registration bodies above this are refused before anything is parsed. */
export const MAX_FORM_BYTES = 64 * 1024;

/** One route of the fixture's server. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** A parsed `application/x-www-form-urlencoded` body, or `'too-large'`. */
export type FormResult = URLSearchParams | 'too-large';

/** A JSON answer that no cache keeps (RFC 6749 §5.1). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      pragma: 'no-cache',
    })
    .end(JSON.stringify(body));
}

/** An RFC 6749 §5.2 error answer, also written to `events` as `<endpoint> error <code>: …`. */
export function oauthError(
  events: string[],
  res: ServerResponse,
  endpoint: string,
  status: number,
  error: string,
  description: string,
): void {
  events.push(`${endpoint} error ${error}: ${description}`);
  sendJson(res, status, { error, error_description: description });
}

/** A short plain-text answer, for what has no OAuth error format (404, a refused sign-in page). */
export function sendPlain(res: ServerResponse, status: number, text: string): void {
  res
    .writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
    })
    .end(text);
}

/** Reads a form body of at most {@link MAX_FORM_BYTES}. */
export async function readForm(req: IncomingMessage): Promise<FormResult> {
  const body = await readBody(req, MAX_FORM_BYTES);
  if (!body) return 'too-large';
  return new URLSearchParams(body.toString('utf8'));
}
