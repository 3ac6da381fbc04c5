// RFC 6749 §3.3 scope-token characters.
/** @internal */
export const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The OAuth scope names in a challenge's `scope` (one space-separated string) or a list; names
 * that are not scope tokens, or longer than 200 characters, are dropped. @internal
 */
export function scopeTokens(scopes: string | readonly string[]): string[] {
  const list: unknown = typeof scopes === 'string' ? scopes.split(/\s+/) : scopes;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (scope): scope is string =>
      typeof scope === 'string' && SCOPE_TOKEN.test(scope) && scope.length <= 200,
  );
}

/**
 * The scope a sign-in asks for. Without configured or requested scopes it is what the SDK chose
 * (the challenge's scope, else every scope the server lists). Otherwise it is the configured
 * scopes, the requested ones, and what the SDK chose — except the SDK's fallback to every listed
 * scope, which configured scopes replace (`offline_access`, which the SDK adds for a refresh
 * token, is kept). @internal
 *
 * @param sdkScope - the `scope` of the sign-in page the SDK built
 * @param configured - the provider's `scopes` option
 * @param requested - scopes asked for since (challenges, explicit requests)
 */
export function signInScopes(
  sdkScope: string | null,
  configured: readonly string[],
  requested: ReadonlySet<string>,
): string[] {
  const chosen = (sdkScope ?? '').split(' ').filter((scope) => scope !== '');
  if (configured.length === 0 && requested.size === 0) return chosen;
  const fromSdk =
    requested.size > 0 ? chosen : chosen.filter((scope) => scope === 'offline_access');
  return [...new Set([...configured, ...requested, ...fromSdk])];
}
