// Where the OAuth fixture answers, and the discovery documents it serves there: RFC 8414
// authorization server metadata and RFC 9728 protected resource metadata (not exported from
// the package).
import { oauthMetadataResponse, type OAuthMetadata } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendWebResponse } from './node-bridge.js';
import { sendPlain } from './oauth-fixture-replies.js';
import type { FixtureStore } from './oauth-fixture-store.js';
import { INSECURE_AUTHORIZATION_HOST } from './oauth-fixture-types.js';

/**
 * The fixture's addresses and metadata. Filled in once the port is known, before any request
 * can arrive; the endpoints read it when they answer.
 */
export interface FixtureSite {
  issuer: string;
  /** The protected MCP endpoint, which is also the RFC 8707 resource. */
  mcpUrl: URL;
  resourceMetadataUrl: string;
  metadata: OAuthMetadata & Record<string, unknown>;
  /**
   * The authorization server of another fixture that now serves this resource
   * ({@link OAuthFixture.moveAuthorizationServer}): the resource metadata names it, and the
   * resource honours only its tokens.
   */
  movedTo?: { readonly site: Readonly<FixtureSite>; readonly store: FixtureStore } | undefined;
}

/** The options of {@link startOAuthFixture} that change the authorization server metadata. */
export interface MetadataSwitches {
  readonly advertisePkce: boolean;
  readonly registration: boolean;
  readonly revocation: boolean;
  readonly issuerInAuthorizationResponse: boolean;
  readonly httpAuthorizationEndpoint: boolean;
  readonly clientMetadataDocuments: boolean;
}

/** The RFC 8414 document of the authorization server at `issuer`, listening on `port`. */
export function authorizationServerMetadata(
  issuer: string,
  port: number,
  supportedScopes: string[],
  switches: MetadataSwitches,
): OAuthMetadata & Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: switches.httpAuthorizationEndpoint
      ? `http://${INSECURE_AUTHORIZATION_HOST}:${port}/authorize`
      : `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    ...(switches.registration && { registration_endpoint: `${issuer}/register` }),
    ...(switches.revocation && {
      revocation_endpoint: `${issuer}/revoke`,
      revocation_endpoint_auth_methods_supported: ['none'],
    }),
    scopes_supported: supportedScopes,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    ...(switches.advertisePkce && { code_challenge_methods_supported: ['S256'] }),
    ...(switches.issuerInAuthorizationResponse && {
      authorization_response_iss_parameter_supported: true,
    }),
    ...(switches.clientMetadataDocuments && { client_id_metadata_document_supported: true }),
  };
}

/**
 * Everything under `/.well-known/`: both metadata documents (and their CORS preflights) through
 * the SDK's `oauthMetadataResponse`, `404` for anything else.
 */
export function metadataEndpoint(
  site: Readonly<FixtureSite>,
  supportedScopes: string[],
): (url: URL, req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (url, req, res) => {
    const preflight = req.headers['access-control-request-headers'];
    const request = new Request(new URL(url.pathname, site.issuer), {
      method: req.method ?? 'GET',
      headers: preflight === undefined ? {} : { 'access-control-request-headers': preflight },
    });
    // The resource metadata names the authorization server that serves the resource now; this
    // fixture's own RFC 8414 document stays its own.
    const isResourceMetadata = new URL(site.resourceMetadataUrl).pathname === url.pathname;
    const answer = oauthMetadataResponse(request, {
      oauthMetadata:
        isResourceMetadata && site.movedTo ? site.movedTo.site.metadata : site.metadata,
      resourceServerUrl: site.mcpUrl,
      scopesSupported: supportedScopes,
    });
    req.resume();
    if (answer) return sendWebResponse(answer, res);
    return sendPlain(res, 404, 'not found');
  };
}
