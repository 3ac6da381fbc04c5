import { kindOf } from '@garuda/internal';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { InsecureAuthorizationServerError, invalidOption, pkceNotSupported } from './errors.js';
import { checkSecureUrl } from './url-policy.js';

/** Options of {@link checkAuthorizationServerMetadata}. */
export interface CheckAuthorizationServerOptions {
  /**
   * Accept `http:` endpoints on `localhost`, `127.0.0.1` or `[::1]`. An opt-out for a server the
   * person configured themselves on their own computer; never set it for a server a repository
   * brings (it could point the browser, with its cookies, at a local service).
   */
  allowHttpLoopback?: boolean;
}

// Endpoints a client talks to or sends a person to. Others ending in `_endpoint` are checked too.
const REQUIRED = ['issuer', 'authorization_endpoint', 'token_endpoint'] as const;

/**
 * The stricter-than-the-SDK check of an authorization server's metadata (RFC 8414 / OpenID
 * discovery), run before any registration is sent and before any browser opens:
 *
 * - `issuer`, `authorization_endpoint`, `token_endpoint` and every other `*_endpoint` must be
 *   https (http only on this computer, and only with `allowHttpLoopback`), without a user name,
 *   password or fragment. The SDK checks only the token endpoint.
 * - `code_challenge_methods_supported` must list `S256`. The SDK goes on when the list is absent
 *   (for some providers that omit it); the MCP specification says a client must refuse.
 * - No metadata at all (a server that publishes none) is refused: nothing could be checked.
 *
 * @param metadata - the authorization server metadata, as discovered (untrusted)
 * @param options - `allowHttpLoopback` for a person's own server on this computer
 * @throws {@link InsecureAuthorizationServerError} for a missing, non-https or odd endpoint
 * @throws {@link OAuthFlowError} `OAUTH_PKCE_NOT_SUPPORTED` when S256 is not advertised
 * @example
 * ```ts
 * checkAuthorizationServerMetadata(discovery.authorizationServerMetadata, {
 *   allowHttpLoopback: server.source === 'user',
 * });
 * ```
 */
export function checkAuthorizationServerMetadata(
  metadata: unknown,
  options: CheckAuthorizationServerOptions = {},
): void {
  if (typeof options !== 'object' || options === null) {
    throw invalidOption(`options must be an object, got ${kindOf(options)}`);
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new InsecureAuthorizationServerError(
      'metadata',
      'it publishes no authorization server metadata (RFC 8414), so its endpoints and PKCE ' +
        'support cannot be checked',
    );
  }
  const fields = metadata as Record<string, unknown>;
  const names = new Set<string>(REQUIRED);
  for (const key of Object.keys(fields)) if (key.endsWith('_endpoint')) names.add(key);
  for (const name of names) {
    const value = fields[name];
    if (value === undefined && !REQUIRED.includes(name as (typeof REQUIRED)[number])) continue;
    const verdict = checkSecureUrl(value, `its ${name}`, {
      allowHttpLoopback: options.allowHttpLoopback === true,
    });
    if (!verdict.ok) throw new InsecureAuthorizationServerError(name, verdict.reason);
  }
  const methods = fields.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes('S256')) {
    throw pkceNotSupported(String(fields.issuer));
  }
}

/**
 * Checks the discovery state the SDK found (or one kept from before): its authorization server
 * address is https (loopback http only when allowed) and its metadata passes
 * {@link checkAuthorizationServerMetadata}. @internal
 *
 * @param state - the SDK's discovery state (untrusted: it may come from an older file)
 * @param allowHttpLoopback - for a person's own server on this computer
 * @throws as {@link checkAuthorizationServerMetadata} does
 */
export function checkDiscoveryState(state: OAuthDiscoveryState, allowHttpLoopback: boolean): void {
  const verdict = checkSecureUrl(state?.authorizationServerUrl, 'its address', {
    allowHttpLoopback,
  });
  if (!verdict.ok) {
    throw new InsecureAuthorizationServerError('authorizationServerUrl', verdict.reason);
  }
  checkAuthorizationServerMetadata(state.authorizationServerMetadata, { allowHttpLoopback });
}
