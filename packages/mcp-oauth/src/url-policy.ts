import { checkUrl } from '@garuda/mcp-sanitize';

/** The outcome of {@link checkSecureUrl}. @internal */
export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Checks an address we are about to send something to (a browser, a token, a revocation) by the
 * one URL policy of `@garuda/mcp-sanitize` (`use: 'open'`): https, or http on this computer only
 * when `allowHttpLoopback` says so; no user name or password; no fragment; no hidden characters.
 * The reason, when refused, quotes the address cleaned.
 * @internal
 */
export function checkSecureUrl(
  raw: unknown,
  what: string,
  { allowHttpLoopback = false }: { allowHttpLoopback?: boolean | undefined },
): UrlVerdict {
  const verdict = checkUrl(raw, { use: 'open', what, allowHttpLoopback });
  return verdict.ok ? { ok: true, url: verdict.url } : { ok: false, reason: verdict.reason };
}
