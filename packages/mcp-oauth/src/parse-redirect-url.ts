import { kindOf } from '@garuda/internal';
import { readAuthorizationResponse } from './authorization-response.js';
import {
  AuthorizationDeniedError,
  invalidOption,
  invalidRedirectUrl,
  stateMismatch,
} from './errors.js';

/** Options of {@link parseRedirectUrl}. */
export interface ParseRedirectUrlOptions {
  /** The redirect URI of the sign-in in progress (`provider.redirectUrl`). */
  redirectUri: string | URL;
}

/** Longer pasted text is refused before it is parsed. */
export const MAX_PASTED_URL_LENGTH = 16_384;

// Terminals wrap long lines and people copy with quotes or angle brackets around an address.
const WRAPPERS: [string, string][] = [
  ['"', '"'],
  ["'", "'"],
  ['<', '>'],
  ['`', '`'],
];

/**
 * The paste flow, for a browser on another machine: the person copies the address their
 * browser ended on after signing in (`http://127.0.0.1:<port>/callback?code=…&state=…`, which
 * fails to load there) and pastes it into the terminal. This checks it and returns what
 * `transport.finishAuth()` needs.
 *
 * - Whitespace anywhere is removed (a wrapped line), and one pair of quotes or angle brackets.
 * - The address must point at our redirect URI: same scheme, host, port and path.
 * - The `state` must be the expected one; an `error` shows only its short code.
 * - No error message ever contains the pasted text: it holds a code.
 *
 * @param pasted - what the person pasted
 * @param expectedState - the `state` of the sign-in in progress (`provider.pendingSignIn()`)
 * @param options - `redirectUri`: the redirect URI of that sign-in
 * @returns `code`, `state` and, when present, `iss`
 * @throws {@link OAuthFlowError} `OAUTH_INVALID_REDIRECT_URL` for text that is not our callback address with a code
 * @throws {@link OAuthFlowError} `OAUTH_STATE_MISMATCH` for another sign-in's address
 * @throws {@link AuthorizationDeniedError} when the address carries an `error`
 * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` for an unusable `expectedState` or `redirectUri`
 * @example
 * ```ts
 * const params = parseRedirectUrl(answer, pending.state, { redirectUri: pending.redirectUri });
 * await transport.finishAuth(params);
 * ```
 */
export function parseRedirectUrl(
  pasted: string,
  expectedState: string,
  options: ParseRedirectUrlOptions,
): URLSearchParams {
  if (typeof expectedState !== 'string' || expectedState.length < 8) {
    throw invalidOption(
      'expectedState must be the sign-in state: a string of at least 8 characters',
    );
  }
  if (typeof options !== 'object' || options === null) {
    throw invalidOption(`options must be an object, got ${kindOf(options)}`);
  }
  let expected: URL;
  try {
    expected = new URL(String(options.redirectUri));
  } catch {
    throw invalidOption('options.redirectUri must be the redirect URI of the sign-in');
  }
  if (typeof pasted !== 'string') {
    throw invalidRedirectUrl(`expected text, got ${kindOf(pasted)}`);
  }
  if (pasted.length > MAX_PASTED_URL_LENGTH) {
    throw invalidRedirectUrl(
      `it is longer than ${MAX_PASTED_URL_LENGTH} characters; copy only the address`,
    );
  }
  let text = pasted.replace(/\s+/gu, '');
  for (const [open, close] of WRAPPERS) {
    if (text.length >= 2 && text.startsWith(open) && text.endsWith(close)) {
      text = text.slice(1, -1);
      break;
    }
  }
  if (text === '') throw invalidRedirectUrl('nothing was pasted');

  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidRedirectUrl(
      `it is not a web address; copy the whole address from the browser's address bar, ` +
        `starting with ${expected.protocol}//`,
    );
  }
  if (
    url.protocol !== expected.protocol ||
    url.hostname !== expected.hostname ||
    url.port !== expected.port ||
    url.pathname !== expected.pathname
  ) {
    throw invalidRedirectUrl(
      `it does not point at this sign-in's callback ${expected.origin}${expected.pathname}; copy ` +
        `the address the browser ended on after you signed in`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw invalidRedirectUrl('it carries a user name or password');
  }
  const result = readAuthorizationResponse(url.searchParams, expectedState);
  switch (result.kind) {
    case 'bad-state':
      throw stateMismatch(result.missing);
    case 'denied':
      throw new AuthorizationDeniedError(result.error);
    case 'malformed':
      throw invalidRedirectUrl(
        `${result.reason}; copy the address the browser ended on after you signed in`,
      );
    case 'code':
      return result.params;
  }
}
