import { kindOf, quote } from '@garuda/internal';
import * as path from 'node:path';
import { encodeKeyPart, hasControlCharacter } from './control-characters.js';
import { invalidOption } from './errors.js';

/**
 * Which entry of the auth store: the server's scope, name and URL.
 *
 * - `scope` is `'user'` for a server in the person's own `mcp.json`, or the absolute path of the
 *   project root for a project's server, so a repository's server never shares a sign-in with
 *   the person's own server of the same name.
 * - `name` is the server name (`^[a-z0-9][a-z0-9_-]{0,31}$`).
 * - `url` is the server's MCP endpoint. A changed URL is another entry: a token is never sent to
 *   an address it was not issued for.
 */
export interface AuthEntryId {
  scope: string;
  name: string;
  url: string | URL;
}

/** An {@link AuthEntryId} checked and made canonical, with its key. @internal */
export interface NormalizedId {
  scope: string;
  name: string;
  url: string;
  /** `scope::name::url`, with `%`, `:` and control characters of a project root percent-encoded. */
  key: string;
}

/** Server names: what `mcp.json` allows, since they become part of tool names. */
export const SERVER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** The scope of the person's own servers. */
export const USER_SCOPE = 'user';

/**
 * Checks a server name.
 * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` naming the rule
 * @internal
 */
export function checkServerName(name: unknown): string {
  if (typeof name !== 'string' || !SERVER_NAME_PATTERN.test(name)) {
    throw invalidOption(
      `server name ${typeof name === 'string' ? quote(name, { max: 60 }) : kindOf(name)} is invalid: ` +
        `use a-z, 0-9 and _, starting with a letter or digit, at most 32 characters`,
    );
  }
  return name;
}

/**
 * Checks an entry id and builds its key.
 * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` for an unusable scope, name or URL
 * @internal
 */
export function normalizeId(id: AuthEntryId): NormalizedId {
  if (typeof id !== 'object' || id === null) {
    throw invalidOption(`an auth entry is named by { scope, name, url }, got ${kindOf(id)}`);
  }
  const scope = checkScope(id.scope);
  const name = checkServerName(id.name);
  const url = checkServerUrl(id.url);
  const encodedScope = scope === USER_SCOPE ? scope : encodeKeyPart(scope);
  return { scope, name, url, key: `${encodedScope}::${name}::${url}` };
}

function checkScope(scope: unknown): string {
  if (scope === USER_SCOPE) return scope;
  if (
    typeof scope !== 'string' ||
    scope === '' ||
    hasControlCharacter(scope) ||
    !(path.posix.isAbsolute(scope) || path.win32.isAbsolute(scope))
  ) {
    throw invalidOption(
      `scope must be 'user' or the absolute path of a project root, got ` +
        `${typeof scope === 'string' ? quote(scope, { max: 100 }) : kindOf(scope)}`,
    );
  }
  return scope;
}

function checkServerUrl(url: unknown): string {
  let parsed: URL;
  try {
    if (typeof url !== 'string' && !(url instanceof URL)) throw new TypeError('not a URL');
    parsed = new URL(String(url));
  } catch {
    throw invalidOption(
      `the server URL must be an http(s) address, got ${typeof url === 'string' ? quote(url, { max: 100 }) : kindOf(url)}`,
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw invalidOption(
      `the server URL must be an http(s) address, got the scheme ${quote(parsed.protocol)}`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw invalidOption('the server URL must not carry a user name or password');
  }
  return parsed.href;
}
