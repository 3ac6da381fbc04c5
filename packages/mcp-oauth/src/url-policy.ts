import { quoteUntrusted } from './errors.js';

/** The host names that count as "this computer" for the http exception. @internal */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a WHATWG `URL.hostname` names this computer: `localhost`, `127.0.0.1` or `[::1]`. The
 * URL parser has already turned shorthand forms such as `127.1` or `0x7f.0.0.1` into
 * `127.0.0.1`, so those count too.
 * @internal
 */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.has(hostname.toLowerCase());
}

/** The outcome of {@link checkSecureUrl}. @internal */
export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Checks an address we are about to send something to (a browser, a token, a revocation):
 * https, or http on this computer only when `allowHttpLoopback` says so; no user name or
 * password; no fragment. The reason, when refused, quotes the address cleaned.
 * @internal
 */
export function checkSecureUrl(
  raw: unknown,
  what: string,
  { allowHttpLoopback = false }: { allowHttpLoopback?: boolean | undefined },
): UrlVerdict {
  if (typeof raw !== 'string' && !(raw instanceof URL)) {
    return { ok: false, reason: `${what} is missing` };
  }
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    return { ok: false, reason: `${what} ${quoteUntrusted(String(raw))} is not a URL` };
  }
  const shown = quoteUntrusted(url.origin === 'null' ? `${url.protocol}…` : url.origin);
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: `${what} ${shown} carries a user name or password` };
  }
  if (url.hash !== '') {
    return { ok: false, reason: `${what} ${shown} has a fragment (#…)` };
  }
  if (url.protocol === 'https:') return { ok: true, url };
  if (url.protocol === 'http:') {
    if (!isLoopbackHostname(url.hostname)) {
      return { ok: false, reason: `${what} ${shown} is not https` };
    }
    if (!allowHttpLoopback) {
      return {
        ok: false,
        reason:
          `${what} ${shown} is http on this computer, which is allowed only for a server you ` +
          `configured yourself`,
      };
    }
    return { ok: true, url };
  }
  return {
    ok: false,
    reason: `${what} uses the scheme ${quoteUntrusted(url.protocol)}, not https`,
  };
}
