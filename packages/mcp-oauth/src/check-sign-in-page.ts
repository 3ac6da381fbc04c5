import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { checkAuthorizationServerMetadata } from './check-authorization-server.js';
import { unsafeAuthorizationUrl } from './errors.js';
import { checkSecureUrl } from './url-policy.js';

/** What a sign-in page must match, as {@link checkSignInPage} takes it. @internal */
export interface SignInPageExpectations {
  /** The authorization server metadata kept with the discovery state. */
  readonly metadata: OAuthDiscoveryState['authorizationServerMetadata'] | undefined;
  /** The `state` of this sign-in; none kept means no page is acceptable. */
  readonly state: string | undefined;
  /** This sign-in's redirect URI. */
  readonly redirectUri: string;
  /** Accept loopback `http:` (only for a server the person configured). */
  readonly allowHttpLoopback: boolean;
}

/**
 * Checks the sign-in page the SDK built before any browser is sent to it: the authorization
 * server still passes {@link checkAuthorizationServerMetadata}, and the address is https
 * (loopback http only when allowed), the published authorization endpoint, with exactly our
 * `state`, our redirect URI and PKCE S256.
 *
 * @param authorizationUrl - the address the SDK built
 * @param expected - the metadata, state, redirect URI and loopback rule of this sign-in
 * @returns the checked address (a copy the caller may change) and the state it carries
 * @throws {@link InsecureAuthorizationServerError}, {@link OAuthFlowError}
 *   `OAUTH_PKCE_NOT_SUPPORTED` or `OAUTH_UNSAFE_AUTHORIZATION_URL`
 * @internal
 */
export function checkSignInPage(
  authorizationUrl: URL,
  expected: SignInPageExpectations,
): { url: URL; state: string } {
  const { metadata, state, redirectUri, allowHttpLoopback } = expected;
  checkAuthorizationServerMetadata(metadata, { allowHttpLoopback });
  const verdict = checkSecureUrl(authorizationUrl, 'the sign-in page', { allowHttpLoopback });
  if (!verdict.ok) throw unsafeAuthorizationUrl(verdict.reason);
  const url = verdict.url;
  const endpoint = new URL(String(metadata?.authorization_endpoint));
  if (url.origin !== endpoint.origin || url.pathname !== endpoint.pathname) {
    throw unsafeAuthorizationUrl('it is not the authorization endpoint the server published');
  }
  if (
    state === undefined ||
    url.searchParams.getAll('state').length !== 1 ||
    url.searchParams.get('state') !== state
  ) {
    throw unsafeAuthorizationUrl("it does not carry this sign-in's state");
  }
  if (url.searchParams.get('redirect_uri') !== redirectUri) {
    throw unsafeAuthorizationUrl("its redirect_uri is not this sign-in's callback");
  }
  if (
    url.searchParams.get('code_challenge_method') !== 'S256' ||
    !url.searchParams.get('code_challenge')
  ) {
    throw unsafeAuthorizationUrl('it does not use PKCE with S256');
  }
  return { url, state };
}
