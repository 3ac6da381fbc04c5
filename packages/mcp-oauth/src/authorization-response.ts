import { createHash, timingSafeEqual } from 'node:crypto';

/** What an authorization response's query says. @internal */
export type AuthorizationResponse =
  | { kind: 'code'; params: URLSearchParams }
  | { kind: 'denied'; error: string }
  | { kind: 'bad-state'; missing: boolean }
  | { kind: 'malformed'; reason: string };

// RFC 6749 error codes are short ASCII words; anything else is shown as a fixed word, so a
// server cannot put its own text on our screen through `error`.
const ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The short OAuth error code to show, or `unrecognized_error` when `raw` is not a plain code.
 * @internal
 */
export function safeErrorCode(raw: string): string {
  return ERROR_CODE.test(raw) ? raw : 'unrecognized_error';
}

/**
 * Compares two secrets in time that does not depend on where they differ. Hashing first makes
 * the lengths equal, which `timingSafeEqual` needs, without revealing the expected length.
 * @internal
 */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}

/**
 * Reads the query of an authorization response (RFC 6749 §4.1.2): the `state` must be exactly
 * the expected one (the SDK does not check it), then either one `code` or one `error`. Only
 * `code`, `state` and `iss` are passed on; `error_description` and anything else a server adds
 * is dropped, since it is attacker-controlled text.
 * @internal
 */
export function readAuthorizationResponse(
  query: URLSearchParams,
  expectedState: string,
): AuthorizationResponse {
  const states = query.getAll('state');
  if (states.length === 0) return { kind: 'bad-state', missing: true };
  if (states.length > 1 || !sameSecret(states[0] as string, expectedState)) {
    return { kind: 'bad-state', missing: false };
  }
  const errors = query.getAll('error');
  if (errors.length > 0) {
    return {
      kind: 'denied',
      error: errors.length === 1 ? safeErrorCode(errors[0] as string) : 'unrecognized_error',
    };
  }
  const codes = query.getAll('code');
  if (codes.length === 0 || codes[0] === '') {
    return { kind: 'malformed', reason: 'it carries no authorization code' };
  }
  if (codes.length > 1) return { kind: 'malformed', reason: 'it carries more than one code' };
  const issuers = query.getAll('iss');
  if (issuers.length > 1) return { kind: 'malformed', reason: 'it carries more than one issuer' };
  const params = new URLSearchParams();
  params.set('code', codes[0] as string);
  params.set('state', states[0] as string);
  if (issuers.length === 1) params.set('iss', issuers[0] as string);
  return { kind: 'code', params };
}
