// Which authorization server a stored client or token set belongs to (SEP-2352). One place
// decides it, for the provider (what the SDK is given) and for revoke (where tokens are sent).
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { AuthEntry } from './auth-entry.js';

/** A stored client or token set, with the `issuer` stamp the SDK puts on it. */
type Credential = StoredOAuthClientInformation | StoredOAuthTokens;

/**
 * Whether two issuer identifiers name the same authorization server: equal, or different only
 * by one trailing `/` (the SDK derives `https://as.example/` from a URL where the metadata says
 * `https://as.example`; RFC 8414 §3.3 tolerates exactly this). Nothing else is normalised.
 * @internal
 */
export function sameIssuer(a: string, b: string): boolean {
  return (
    a === b ||
    (a.endsWith('/') && a.slice(0, -1) === b) ||
    (b.endsWith('/') && b.slice(0, -1) === a)
  );
}

/**
 * The issuer a discovery result names, as the SDK computes it: the metadata's `issuer`, else the
 * authorization server URL.
 * @internal
 */
export function discoveryIssuer(discovery: OAuthDiscoveryState | undefined): string | undefined {
  const issuer: unknown = discovery?.authorizationServerMetadata?.issuer;
  if (typeof issuer === 'string' && issuer !== '') return issuer;
  const url: unknown = discovery?.authorizationServerUrl;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/**
 * The authorization server a stored credential belongs to: its `issuer` stamp. A credential
 * without one was stored before stamps existed, together with the discovery result of the
 * server it came from (the SDK saves discovery before it registers or signs in), so it belongs
 * to the issuer of its entry's discovery. Without either it belongs nowhere known, and
 * {@link credentialFor} never hands it out: a new registration or sign-in is cheaper than
 * sending a client id or a token to a server that did not issue it.
 * @internal
 */
export function issuerOf(credential: Credential, entry: AuthEntry): string | undefined {
  const stamp: unknown = credential.issuer;
  if (typeof stamp === 'string' && stamp !== '') return stamp;
  return discoveryIssuer(entry.discovery);
}

/**
 * The credential to use with the authorization server `issuer`: the stored one, stamped, when
 * it belongs to that server; otherwise `undefined` (the SDK registers again or signs in again).
 * @internal
 */
export function credentialFor<T extends Credential>(
  credential: T | undefined,
  entry: AuthEntry,
  issuer: string,
): T | undefined {
  if (credential === undefined) return undefined;
  const own = issuerOf(credential, entry);
  if (own === undefined || !sameIssuer(own, issuer)) return undefined;
  return { ...credential, issuer: own };
}
