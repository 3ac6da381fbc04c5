import net from 'node:net';
import { classifyAddress, type AddressClass } from '@garuda/pinned-fetch';
import { ConfigProblemCode } from './config-problem.js';
import { invalidArgument } from './errors.js';
import { quoteText } from './quote-text.js';
import type { ServerSource } from './server-types.js';

/** The problem codes {@link checkServerUrl} can give. */
export type UrlProblemCode =
  | typeof ConfigProblemCode.URL_INVALID
  | typeof ConfigProblemCode.URL_SCHEME
  | typeof ConfigProblemCode.URL_CREDENTIALS
  | typeof ConfigProblemCode.URL_FRAGMENT
  | typeof ConfigProblemCode.URL_NOT_PUBLIC;

/** The result of {@link checkServerUrl}. */
export type CheckServerUrlResult =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly code: UrlProblemCode; readonly message: string };

const MAX_URL_LENGTH = 8192;

// URL silently drops tabs and line breaks and trims spaces and controls; a URL that needed that
// is not what it looks like, so such characters (and invisible ones) are refused instead.
const HIDDEN = /[\p{C}\p{Z}]/u;

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

const CLASS_WORDS: Partial<Record<AddressClass, string>> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique local address',
  siteLocal: 'a site-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  unspecified: 'the unspecified address (this machine)',
  broadcast: 'the broadcast address',
  metadata: 'a cloud metadata address',
  documentation: 'a documentation address',
};

function refuse(code: UrlProblemCode, raw: string, reason: string): CheckServerUrlResult {
  return { ok: false, code, message: `URL ${quoteText(raw)} ${reason}` };
}

/** The authority part of a raw URL (between `//` and the path), as written. */
function rawAuthority(raw: string): string {
  const start = raw.indexOf('//');
  if (start === -1) return '';
  const rest = raw.slice(start + 2);
  const end = rest.search(/[/\\?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

/**
 * Checks a remote server's URL against the rules for its source.
 *
 * - It must parse with the WHATWG `URL` parser (nothing else is used) and contain no spaces,
 *   control or invisible characters.
 * - `https:` only. `http:` only for the hosts `localhost`, `127.0.0.1` and `[::1]`, and only in
 *   the user's own file. Other schemes are refused.
 * - No `user:password@` (not even an empty one) and no `#fragment` (not even an empty `#`).
 * - For a project's server: the host must not be `localhost` or a name under `.localhost`
 *   (trailing dots ignored), and an IP-literal host must be public (`classifyAddress` from
 *   `@garuda/pinned-fetch`). `URL` has already turned spellings such as `0x7f000001`,
 *   `2130706433` or `127.1` into `127.0.0.1`, so they are judged as what they are.
 *
 * Host **names** are not resolved here: a name can point anywhere and change at any time, so a
 * project's server must be reached through pinned fetch, which checks every address it
 * resolves to at connect time.
 *
 * @param url - The URL as written in the file.
 * @param source - `'user'` or `'project'`: which file it comes from.
 * @returns `{ ok: true, url }` with the parsed URL, or `{ ok: false, code, message }`.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` when `url` is not a string or `source` is not
 *   `'user'` / `'project'` (a programming error).
 * @example
 * ```ts
 * checkServerUrl('https://mcp.example.com/mcp', 'project'); // { ok: true, url: URL {...} }
 * checkServerUrl('http://localhost:3000/mcp', 'project').ok; // false (URL_SCHEME)
 * checkServerUrl('https://169.254.169.254/', 'project').ok; // false (URL_NOT_PUBLIC)
 * ```
 */
export function checkServerUrl(url: string, source: ServerSource): CheckServerUrlResult {
  if (typeof url !== 'string') {
    throw invalidArgument('checkServerUrl: url must be a string');
  }
  if (source !== 'user' && source !== 'project') {
    throw invalidArgument('checkServerUrl: source must be "user" or "project"');
  }
  if (url.length > MAX_URL_LENGTH) {
    return refuse(
      ConfigProblemCode.URL_INVALID,
      url,
      `is longer than ${MAX_URL_LENGTH} characters: check it`,
    );
  }
  if (HIDDEN.test(url)) {
    return refuse(
      ConfigProblemCode.URL_INVALID,
      url,
      'contains spaces, control or invisible characters: remove them (percent-encode a space as %20)',
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse(
      ConfigProblemCode.URL_INVALID,
      url,
      'is not a valid URL: write it in full, like https://mcp.example.com/mcp',
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return refuse(
      ConfigProblemCode.URL_SCHEME,
      url,
      `uses ${quoteText(parsed.protocol)}: a remote server needs an https:// URL`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '' || rawAuthority(url).includes('@')) {
    return refuse(
      ConfigProblemCode.URL_CREDENTIALS,
      url,
      'has a user name or password in it: remove them (sign in with OAuth, or send a header ' +
        'such as "Authorization": "Bearer ${TOKEN}")',
    );
  }
  if (url.includes('#')) {
    return refuse(ConfigProblemCode.URL_FRAGMENT, url, 'has a "#" fragment: remove it');
  }
  if (parsed.protocol === 'http:') {
    if (source === 'project') {
      return refuse(
        ConfigProblemCode.URL_SCHEME,
        url,
        "uses http, which a project's server may not: use https",
      );
    }
    if (!LOOPBACK_HOSTS.has(parsed.hostname)) {
      return refuse(
        ConfigProblemCode.URL_SCHEME,
        url,
        'uses http on a host other than localhost, 127.0.0.1 or [::1]: use https',
      );
    }
  }
  if (source === 'project') {
    let host = parsed.hostname;
    while (host.endsWith('.')) host = host.slice(0, -1);
    if (host === 'localhost' || host.endsWith('.localhost')) {
      return refuse(
        ConfigProblemCode.URL_NOT_PUBLIC,
        url,
        "points at this machine (localhost), which a project's server may not: " +
          'use the public address of the server',
      );
    }
    const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    if (net.isIP(literal) !== 0) {
      const addressClass = classifyAddress(literal);
      if (addressClass !== 'public') {
        const words = CLASS_WORDS[addressClass] ?? `a special-purpose address (${addressClass})`;
        return refuse(
          ConfigProblemCode.URL_NOT_PUBLIC,
          url,
          `points at ${literal}, ${words}, which a project's server may not: ` +
            'use the public address of the server',
        );
      }
    }
  }
  return { ok: true, url: parsed };
}
