import { kindOf, log, quote } from '@garuda/internal';
import {
  discoverOAuthServerInfo,
  type AuthorizationServerMetadata,
  type FetchLike,
} from '@modelcontextprotocol/client';
import { isPlainObject } from './auth-entry.js';
import { checkServerName, normalizeId } from './auth-key.js';
import type { AuthRecord, AuthStore } from './auth-store.js';
import { safeErrorCode } from './authorization-response.js';
import { invalidOption, quoteUntrusted } from './errors.js';
import { issuerOf, sameIssuer } from './issuer-binding.js';
import type { OAuthLogger } from './logger.js';
import { checkSecureUrl } from './url-policy.js';

/** Options of {@link revoke}. */
export interface RevokeOptions {
  /** The server being signed out of; `metadata` applies to its entries. */
  serverUrl: string | URL;
  /** The auth store holding its entries. */
  store: AuthStore;
  /** The server name: every entry of this name is removed (every scope, every URL). */
  name: string;
  /** For discovery and revocation requests. Default the global `fetch`. */
  fetch?: FetchLike;
  /** The authorization server metadata, when the caller has it; else stored, else discovered. */
  metadata?: AuthorizationServerMetadata;
  /** Accept an `http:` revocation endpoint on this computer (a person's own server). */
  allowHttpLoopback?: boolean;
  /** Time limit of each request. Default 10 000 ms. */
  timeoutMs?: number;
  /** Stops the revocation requests (the local entries are already removed). */
  signal?: AbortSignal;
  /** Receives one line per revocation that failed; never a token. */
  logger?: OAuthLogger;
}

/** What happened to one token. */
export interface RevocationOutcome {
  /** The entry's scope. */
  scope: string;
  /** The entry's server URL. */
  url: string;
  /** Which token. */
  token: 'refresh_token' | 'access_token';
  /**
   * `revoked` (the server answered 200), `failed` (see `reason`), or `unsupported` (the server
   * advertises no revocation endpoint: the token stays valid until it expires).
   */
  status: 'revoked' | 'failed' | 'unsupported';
  /** Why it failed or is unsupported; never contains a token. */
  reason?: string;
}

/** The result of {@link revoke}. */
export interface RevokeResult {
  /** How many local entries were removed. */
  removed: number;
  /** One outcome per token that was stored. */
  revocations: RevocationOutcome[];
  /** Whether every stored token was revoked (true when there were none). */
  ok: boolean;
}

/** Default of {@link RevokeOptions.timeoutMs}. */
export const DEFAULT_REVOKE_TIMEOUT_MS = 10_000;

/**
 * Signs out of a server: removes every local entry of `name` from the store — always, first,
 * whatever happens next — then revokes the tokens those entries held (RFC 7009) at the
 * authorization server's `revocation_endpoint`, when it advertises one: the refresh token
 * first (servers usually revoke its access tokens with it), then the access token, each as a
 * public client (`client_id` in the body). A revocation that fails is reported, not thrown.
 *
 * The endpoint must be https (http only on this computer with `allowHttpLoopback`), redirects
 * are not followed (a redirect would resend the token elsewhere), and an error answer is
 * reported by its short code only.
 *
 * @param options - see {@link RevokeOptions}
 * @returns how many entries were removed and what happened to each token
 * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` for unusable options; store errors when the entries could
 *   not be removed (then nothing was revoked either, and nothing was lost: try again)
 * @example
 * ```ts
 * const result = await revoke({ serverUrl, store, name: 'linear' });
 * if (!result.ok) notice('Signed out here; the server could not be told: ' + …);
 * ```
 */
export async function revoke(options: RevokeOptions): Promise<RevokeResult> {
  if (typeof options !== 'object' || options === null) {
    throw invalidOption(`revoke needs an options object, got ${kindOf(options)}`);
  }
  const { store, logger, signal } = options;
  const name = checkServerName(options.name);
  const serverUrl = normalizeId({ scope: 'user', name, url: options.serverUrl }).url;
  if (typeof store !== 'object' || store === null || typeof store.remove !== 'function') {
    throw invalidOption(`options.store must be an AuthStore, got ${kindOf(store)}`);
  }
  const fetchFn = options.fetch ?? fetch;
  if (typeof fetchFn !== 'function') throw invalidOption('options.fetch must be a function');
  const timeoutMs = options.timeoutMs ?? DEFAULT_REVOKE_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs > 600_000) {
    throw invalidOption('options.timeoutMs must be a number of milliseconds from 1 to 600000');
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw invalidOption(`options.signal must be an AbortSignal, got ${kindOf(signal)}`);
  }

  const records = await store.remove(name);
  const revocations: RevocationOutcome[] = [];
  for (const record of records) {
    const tokens = record.entry.tokens;
    if (!tokens) continue;
    const todo: [RevocationOutcome['token'], string][] = [];
    if (typeof tokens.refresh_token === 'string')
      todo.push(['refresh_token', tokens.refresh_token]);
    if (typeof tokens.access_token === 'string') todo.push(['access_token', tokens.access_token]);
    const base = { scope: record.scope, url: record.url };
    const endpoint = await revocationEndpoint(record, {
      metadata: record.url === serverUrl ? options.metadata : undefined,
      fetchFn,
      allowHttpLoopback: options.allowHttpLoopback === true,
    });
    for (const [token, value] of todo) {
      let outcome: RevocationOutcome;
      if (!endpoint.ok) {
        outcome = { ...base, token, status: endpoint.status, reason: endpoint.reason };
      } else {
        const failure = await revokeOne(
          endpoint.url,
          value,
          token,
          record.entry.client?.client_id,
          {
            fetchFn,
            timeoutMs,
            signal,
          },
        );
        outcome =
          failure === undefined
            ? { ...base, token, status: 'revoked' }
            : { ...base, token, status: 'failed', reason: failure };
      }
      if (outcome.status !== 'revoked') {
        log(
          logger,
          'warn',
          `signed out of ${quote(name)} here, but its ${token === 'refresh_token' ? 'refresh' : 'access'} ` +
            `token could not be revoked at the server: ${outcome.reason ?? outcome.status}`,
        );
      }
      revocations.push(outcome);
    }
  }
  return {
    removed: records.length,
    revocations,
    ok: revocations.every((r) => r.status === 'revoked'),
  };
}

type Endpoint =
  { ok: true; url: URL } | { ok: false; status: 'failed' | 'unsupported'; reason: string };

async function revocationEndpoint(
  record: AuthRecord,
  {
    metadata,
    fetchFn,
    allowHttpLoopback,
  }: {
    metadata: AuthorizationServerMetadata | undefined;
    fetchFn: FetchLike;
    allowHttpLoopback: boolean;
  },
): Promise<Endpoint> {
  let found: unknown = metadata ?? record.entry.discovery?.authorizationServerMetadata;
  if (found === undefined) {
    try {
      found = (await discoverOAuthServerInfo(record.url, { fetchFn })).authorizationServerMetadata;
    } catch {
      return { ok: false, status: 'failed', reason: 'its authorization server could not be found' };
    }
  }
  // Tokens go back only to the authorization server that issued them (SEP-2352): after the
  // resource moved, the server it names now must not receive the old server's tokens.
  const tokens = record.entry.tokens;
  const issuedBy = tokens === undefined ? undefined : issuerOf(tokens, record.entry);
  const serverIssuer = isPlainObject(found) ? found.issuer : undefined;
  if (
    issuedBy === undefined ||
    typeof serverIssuer !== 'string' ||
    !sameIssuer(issuedBy, serverIssuer)
  ) {
    return {
      ok: false,
      status: 'failed',
      reason:
        issuedBy === undefined
          ? 'it is not known which authorization server issued the tokens, so they were not sent anywhere'
          : `the tokens were issued by ${quoteUntrusted(issuedBy)}, not by the authorization server ` +
            `found now${typeof serverIssuer === 'string' ? ` (${quoteUntrusted(serverIssuer)})` : ''}, ` +
            'so they were not sent there',
    };
  }
  const endpoint = isPlainObject(found) ? found.revocation_endpoint : undefined;
  if (endpoint === undefined) {
    return {
      ok: false,
      status: 'unsupported',
      reason:
        'the authorization server offers no revocation; the token stays valid until it expires',
    };
  }
  const verdict = checkSecureUrl(endpoint, 'its revocation_endpoint', { allowHttpLoopback });
  if (!verdict.ok) return { ok: false, status: 'failed', reason: verdict.reason };
  return { ok: true, url: verdict.url };
}

// One RFC 7009 request. Returns why it failed, or undefined when revoked.
async function revokeOne(
  endpoint: URL,
  token: string,
  hint: 'refresh_token' | 'access_token',
  clientId: string | undefined,
  {
    fetchFn,
    timeoutMs,
    signal,
  }: { fetchFn: FetchLike; timeoutMs: number; signal: AbortSignal | undefined },
): Promise<string | undefined> {
  const body = new URLSearchParams({ token, token_type_hint: hint });
  if (clientId !== undefined) body.set('client_id', clientId);
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetchFn(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch {
    if (signal?.aborted) return 'cancelled';
    if (timeout.aborted) return `no answer within ${timeoutMs} ms`;
    return 'the revocation endpoint could not be reached';
  }
  if (response.status === 200) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  let code: string | undefined;
  try {
    const data: unknown = JSON.parse(await readCapped(response, 4096));
    if (isPlainObject(data) && typeof data.error === 'string') code = safeErrorCode(data.error);
  } catch {
    code = undefined;
  }
  return `HTTP ${response.status}${code ? ` (${code})` : ''}`;
}

// An error answer is a few bytes of JSON; a server sending more is not read further.
async function readCapped(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}
