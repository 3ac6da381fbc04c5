import { log } from '@garuda/internal';
import type { RemoteServerConfig } from '@garuda/mcp-config';
import {
  GarudaOAuthProvider,
  parseRedirectUrl,
  waitForCallback,
  type AuthStore,
  type PendingSignIn,
} from '@garuda/mcp-oauth';
import { createHttpTransport } from '@garuda/mcp-transport';
import {
  UnauthorizedError,
  auth,
  extractWWWAuthenticateParams,
  type StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { linkSignals } from '../common/abort.js';
import { hasStaticAuthorization } from './static-authorization.js';
import { SignInRequiredError } from '../errors.js';
import { MAX_AUTHORIZATIONS, type OpenResult, type Reauthorize } from './server-connection.js';
import { policyFetch, type ServerPolicy } from './server-policy.js';
import { messageOf, oneLine } from '../common/text.js';
import type { ManagerLogger, SignInReason, SignInRequest } from '../types.js';

/** The longest scope name shown on a sign-in question or in an error, in code points. */
const MAX_SCOPE_CHARS = 100;
/** The most scopes listed on a sign-in question. */
const MAX_SCOPES_SHOWN = 30;

/** Opens the sign-in page in the user's browser. @internal */
export type BrowserOpener = (
  url: string,
  options: { readonly allowHttpLoopback: boolean },
) => unknown;

/** What a remote connect needs from the manager, given once. @internal */
export interface RemoteDeps {
  /** The strict fetch, for the servers whose policy says `pinned` (public addresses only). */
  readonly pinnedFetch: typeof fetch;
  /** The sign-ins (`<home>/mcp-auth.json`). */
  readonly authStore: AuthStore;
  /** The host's Client ID Metadata Document URL, if any (a server's config overrides it). */
  readonly clientMetadataUrl: string | undefined;
  /** Asks "Sign in to x?" (one question at a time); undefined when the prompter cannot. */
  readonly signIn: ((request: SignInRequest, signal: AbortSignal) => Promise<boolean>) | undefined;
  readonly openBrowser: BrowserOpener;
  /** Asks for a pasted redirect address; undefined when the prompter cannot. */
  readonly pasteRedirect:
    ((request: SignInRequest, signal: AbortSignal) => Promise<string | undefined>) | undefined;
  readonly notice: (text: string) => void;
  readonly logger?: ManagerLogger | undefined;
}

/** How a remote connect ended: as {@link OpenResult}, plus whether OAuth tokens are in use. @internal */
export type RemoteOpenResult = OpenResult & { readonly signedIn: boolean };

function staticHeaders(server: RemoteServerConfig): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, resolved] of Object.entries(server.headers)) headers[name] = resolved.value;
  return headers;
}

/** The SDK's `UnauthorizedError`, also when the SDK wrapped it (a version probe, say). */
function isUnauthorized(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (UnauthorizedError.isInstance(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function failed(reason: string, cancelled = false, error?: unknown): RemoteOpenResult {
  return {
    ok: false,
    reason,
    cancelled,
    signedIn: false,
    ...(error === undefined ? {} : { error }),
  };
}

/** Scope names as a question or an error shows them: one line each, tags neutralised, capped. */
function shownScopes(scopes: readonly string[]): string[] {
  return scopes.slice(0, MAX_SCOPES_SHOWN).map((scope) => oneLine(scope, MAX_SCOPE_CHARS));
}

function scopesOf(value: unknown): string[] {
  return typeof value === 'string' ? value.split(' ').filter((scope) => scope !== '') : [];
}

interface Redirect {
  readonly url: URL;
  readonly pending: PendingSignIn;
}

/**
 * The OAuth side of one remote server: its provider (with the configured client and scopes),
 * the sign-in page the SDK asked for last, and what the server's last challenge was.
 */
class RemoteAuth {
  readonly provider: GarudaOAuthProvider;
  /** The status of the MCP endpoint's last 401 or 403 answer. */
  lastChallenge: number | undefined;
  #redirect: Redirect | undefined;

  constructor(server: RemoteServerConfig, policy: ServerPolicy, ctx: RemoteDeps) {
    const oauth = server.def.oauth;
    // The spec's order of preference: a pre-registered client id, else a Client ID Metadata
    // Document (where the authorization server takes them), else dynamic registration.
    const client =
      oauth?.clientId !== undefined
        ? { clientId: oauth.clientId }
        : (oauth?.clientMetadataUrl ?? ctx.clientMetadataUrl) !== undefined
          ? { clientMetadataUrl: oauth?.clientMetadataUrl ?? ctx.clientMetadataUrl }
          : {};
    this.provider = new GarudaOAuthProvider({
      store: ctx.authStore,
      scope: policy.signInScope,
      name: server.name,
      serverUrl: server.url,
      onRedirect: (url, pending) => {
        this.#redirect = { url, pending };
      },
      allowHttpLoopback: policy.allowHttpLoopback,
      ...client,
      ...(oauth?.scopes === undefined ? {} : { scopes: oauth.scopes }),
      ...(ctx.logger ? { logger: ctx.logger } : {}),
    });
  }

  /** The sign-in page the SDK asked for since the last call, if any. */
  takeRedirect(): Redirect | undefined {
    const redirect = this.#redirect;
    this.#redirect = undefined;
    return redirect;
  }

  /**
   * `fetchFn`, telling the provider which scopes the MCP endpoint's challenges name (a 401, or a
   * 403 `insufficient_scope`), so a sign-in asks for them together with the configured ones.
   */
  observe(fetchFn: typeof fetch, endpoint: URL): typeof fetch {
    return async (input, init) => {
      const response = await fetchFn(input, init);
      if ((response.status === 401 || response.status === 403) && isEndpoint(input, endpoint)) {
        const { scope, error } = extractWWWAuthenticateParams(response);
        if (response.status === 401 || error === 'insufficient_scope') {
          this.lastChallenge = response.status;
          if (scope !== undefined) this.provider.requestScopes(scope);
        }
      }
      return response;
    };
  }

  /**
   * Forgets a sign-in the SDK started that will not finish (skipped, cancelled, no callback):
   * its code verifier would keep the next authorization at the authorization server it started
   * at (the provider hands its discovery back only for a sign-in in progress), even after the
   * server moved to another one.
   */
  async abandonSignIn(): Promise<void> {
    await Promise.resolve(this.provider.invalidateCredentials('verifier')).catch(() => undefined);
  }

  /** The scopes the stored sign-in holds. */
  async heldScopes(): Promise<string[]> {
    const tokens = await Promise.resolve(this.provider.tokens()).catch(() => undefined);
    return scopesOf(tokens?.scope);
  }
}

function isEndpoint(input: Parameters<typeof fetch>[0], endpoint: URL): boolean {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    const url = new URL(href);
    return url.origin === endpoint.origin && url.pathname === endpoint.pathname;
  } catch {
    return false;
  }
}

/**
 * How a sign-in ended: the callback's parameters, or why not — `declined` (the person said no),
 * `unasked` (the prompter cannot ask), `cancelled`, or `failed` (with the reason in words).
 */
type SignInOutcome =
  | { readonly params: URLSearchParams }
  | { readonly end: 'declined' | 'unasked' | 'cancelled' | 'failed'; readonly reason: string };

/** Asks, opens the browser, tells the URL, and waits for the callback. */
async function signIn(
  server: RemoteServerConfig,
  policy: ServerPolicy,
  ctx: RemoteDeps,
  redirect: Redirect,
  why: { readonly reason: SignInReason; readonly held: readonly string[] },
  signal: AbortSignal,
): Promise<SignInOutcome> {
  const wanted = redirect.pending.scopes;
  const request: SignInRequest = {
    server: server.name,
    url: oneLine(server.url.href, 2_000),
    signInOrigin: oneLine(redirect.url.origin, 2_000),
    callback: redirect.pending.redirectUri,
    reason: why.reason,
    scopes: shownScopes(wanted),
    addedScopes:
      why.reason === 'more-access'
        ? shownScopes(wanted.filter((scope) => !why.held.includes(scope)))
        : [],
  };
  if (ctx.signIn === undefined) return { end: 'unasked', reason: 'nobody could be asked' };
  let yes: boolean;
  try {
    yes = (await ctx.signIn(request, signal)) === true;
  } catch (error) {
    if (signal.aborted) return { end: 'cancelled', reason: 'it was cancelled' };
    return { end: 'failed', reason: `the sign-in question failed: ${messageOf(error)}` };
  }
  if (!yes) return { end: 'declined', reason: 'you skipped it' };
  const allowHttpLoopback = policy.allowHttpLoopback;
  // The callback and a pasted address race; the loser is stopped when the winner is in.
  const done = new AbortController();
  const { controller, detach } = linkSignals(signal, done.signal);
  try {
    const callback = waitForCallback({
      port: redirect.pending.port,
      state: redirect.pending.state,
      signal: controller.signal,
      ...(ctx.logger ? { logger: ctx.logger } : {}),
      onListening: () => {
        ctx.notice(
          `Sign in to MCP server "${server.name}" in your browser. If it did not open, go to: ${redirect.url.href}`,
        );
        Promise.resolve()
          .then(() => ctx.openBrowser(redirect.url.href, { allowHttpLoopback }))
          .catch((error: unknown) =>
            log(ctx.logger, 'warn', `could not open the browser: ${oneLine(messageOf(error))}`),
          );
      },
    });
    const racers = [callback];
    if (ctx.pasteRedirect !== undefined) {
      const pasted = ctx.pasteRedirect(request, controller.signal).then((text) =>
        text === undefined
          ? new Promise<URLSearchParams>(() => {})
          : parseRedirectUrl(text, redirect.pending.state, {
              redirectUri: redirect.pending.redirectUri,
            }),
      );
      racers.push(pasted);
    }
    for (const racer of racers) racer.catch(() => {});
    const params = await Promise.race(racers);
    return { params };
  } catch (error) {
    if (signal.aborted) return { end: 'cancelled', reason: 'it was cancelled' };
    return { end: 'failed', reason: `the sign-in failed: ${messageOf(error)}` };
  } finally {
    done.abort();
    detach();
  }
}

/** A start's failure reason for a sign-in that did not happen. */
function startReason(
  outcome: Exclude<SignInOutcome, { params: URLSearchParams }>,
  reason: SignInReason,
): string {
  const needs =
    reason === 'more-access'
      ? 'it needs a sign-in with more access'
      : reason === 'expired'
        ? 'its sign-in expired and it needs a new one'
        : 'it needs a sign-in';
  switch (outcome.end) {
    case 'cancelled':
      return 'its start was cancelled';
    case 'declined':
      return `${needs}, and you skipped it`;
    case 'unasked':
      return `${needs}, and nobody could be asked (sign in to it first)`;
    default:
      return outcome.reason;
  }
}

/**
 * The hook a connected server's calls use when the server asks for a sign-in mid-session (its
 * sign-in expired and could not be refreshed, or it wants more scopes): the question, the
 * browser, `finishAuth` on the live transport. One sign-in at a time: calls that fail together
 * wait for the one in progress and then retry.
 */
function callReauthorizer(
  server: RemoteServerConfig,
  policy: ServerPolicy,
  ctx: RemoteDeps,
  remote: RemoteAuth,
  transport: StreamableHTTPClientTransport,
): Reauthorize {
  let inProgress: Promise<void> | undefined;
  return async (error, tool, signal) => {
    if (!isUnauthorized(error)) return false;
    if (inProgress !== undefined) {
      await inProgress;
      return true;
    }
    const redirect = remote.takeRedirect();
    if (redirect === undefined) return false;
    const run = async () => {
      const held = await remote.heldScopes();
      const reason: SignInReason = remote.lastChallenge === 403 ? 'more-access' : 'expired';
      const outcome = await signIn(server, policy, ctx, redirect, { reason, held }, signal);
      const details = {
        server: server.name,
        tool,
        reason,
        scopes: shownScopes(redirect.pending.scopes),
        addedScopes:
          reason === 'more-access'
            ? shownScopes(redirect.pending.scopes.filter((scope) => !held.includes(scope)))
            : [],
      };
      if ('end' in outcome) {
        await remote.abandonSignIn();
        throw new SignInRequiredError({ ...details, detail: oneLine(outcome.reason) });
      }
      try {
        await transport.finishAuth(outcome.params);
      } catch (cause) {
        throw new SignInRequiredError(
          { ...details, detail: `the sign-in failed: ${oneLine(messageOf(cause))}` },
          { cause },
        );
      }
    };
    inProgress = run();
    try {
      await inProgress;
      return true;
    } finally {
      inProgress = undefined;
    }
  };
}

/**
 * Connects to a remote server: with the config's own `Authorization` header as is, else with
 * OAuth (stored tokens reused; on a 401 the sign-in question, the browser, the callback,
 * `finishAuth`, and a new transport), at most {@link MAX_AUTHORIZATIONS} sign-ins, through the
 * fetch its policy names. The connection it opens signs in
 * again by itself when a call meets an expired sign-in or a `403 insufficient_scope`. Never
 * throws. @internal
 *
 * @param server - The remote server.
 * @param policy - Its policy (fetch, sign-in scope, http on loopback).
 * @param ctx - The manager's side.
 * @param signal - Cancels the connect (the sign-in question included).
 * @param open - Connects and lists tools over one transport; `reauthorize` goes to its calls.
 * @returns The connection, or why it failed; `signedIn` when OAuth tokens are in use.
 */
export async function openRemote(
  server: RemoteServerConfig,
  policy: ServerPolicy,
  ctx: RemoteDeps,
  signal: AbortSignal,
  open: (transport: Transport, reauthorize: Reauthorize | undefined) => Promise<OpenResult>,
): Promise<RemoteOpenResult> {
  const fetchFn = policyFetch(policy, ctx.pinnedFetch);
  const requestInit = { headers: staticHeaders(server) };
  if (hasStaticAuthorization(server)) {
    const transport = createHttpTransport(server.url, { fetch: fetchFn, requestInit });
    const result = await open(transport, undefined);
    return { ...result, signedIn: false };
  }
  let remote: RemoteAuth;
  try {
    remote = new RemoteAuth(server, policy, ctx);
  } catch (error) {
    return failed(`its sign-in settings are not usable: ${oneLine(messageOf(error))}`);
  }
  const hadSignIn = await hasTokens(remote);
  for (let attempt = 1; ; attempt++) {
    remote.takeRedirect();
    remote.lastChallenge = undefined;
    const transport = createHttpTransport(server.url, {
      fetch: remote.observe(fetchFn, server.url),
      authProvider: remote.provider,
      requestInit,
    });
    const result = await open(transport, callReauthorizer(server, policy, ctx, remote, transport));
    if (result.ok) return { ...result, signedIn: await hasTokens(remote) };
    const redirect = remote.takeRedirect();
    if (result.cancelled || !isUnauthorized(result.error) || redirect === undefined) {
      return { ...result, signedIn: false };
    }
    if (attempt > MAX_AUTHORIZATIONS) {
      return failed(`it still asked for a sign-in after ${MAX_AUTHORIZATIONS} sign-ins`);
    }
    const reason: SignInReason =
      remote.lastChallenge === 403
        ? 'more-access'
        : attempt === 1 && hadSignIn
          ? 'expired'
          : 'required';
    const outcome = await signIn(
      server,
      policy,
      ctx,
      redirect,
      { reason, held: await remote.heldScopes() },
      signal,
    );
    if ('end' in outcome) {
      await remote.abandonSignIn();
      return failed(startReason(outcome, reason), outcome.end === 'cancelled');
    }
    try {
      await transport.finishAuth(outcome.params);
    } catch (error) {
      if (signal.aborted) return failed('its start was cancelled', true);
      return failed(`the sign-in failed: ${messageOf(error)}`, false, error);
    }
  }
}

async function hasTokens(remote: RemoteAuth): Promise<boolean> {
  const tokens = await Promise.resolve(remote.provider.tokens()).catch(() => undefined);
  return tokens !== undefined;
}

/**
 * A new sign-in to a remote server now, even when it is signed in: it asks for the configured
 * scopes, the scopes the current sign-in holds, and `scopes`. Runs the SDK's `auth()` directly
 * (discovery, the sign-in page, the code exchange), through the server's fetch, without an MCP
 * connection. @internal
 *
 * @param server - The remote server (not one with a configured `Authorization` header).
 * @param policy - Its policy.
 * @param ctx - The manager's side.
 * @param scopes - More scopes to ask for.
 * @param signal - Cancels it.
 * @throws {@link SignInRequiredError} when it did not complete.
 */
export async function forceSignIn(
  server: RemoteServerConfig,
  policy: ServerPolicy,
  ctx: RemoteDeps,
  scopes: readonly string[],
  signal: AbortSignal,
): Promise<void> {
  const remote = new RemoteAuth(server, policy, ctx);
  const fetchFn = policyFetch(policy, ctx.pinnedFetch);
  const held = await remote.heldScopes();
  const wanted = [...new Set([...(server.def.oauth?.scopes ?? []), ...held, ...scopes])];
  remote.provider.requestScopes(wanted);
  const reason: SignInReason = (await hasTokens(remote)) ? 'more-access' : 'required';
  const fail = (detail: string, cause?: unknown): never => {
    throw new SignInRequiredError(
      {
        server: server.name,
        reason,
        scopes: shownScopes(wanted),
        addedScopes: shownScopes(wanted.filter((scope) => !held.includes(scope))),
        detail: oneLine(detail),
      },
      cause === undefined ? undefined : { cause },
    );
  };
  const serverUrl = server.url;
  let first: 'AUTHORIZED' | 'REDIRECT';
  try {
    first = await auth(remote.provider, { serverUrl, forceReauthorization: true, fetchFn });
  } catch (error) {
    if (signal.aborted) return fail('it was cancelled', error);
    return fail(`the sign-in could not start: ${messageOf(error)}`, error);
  }
  if (first === 'AUTHORIZED') return;
  const redirect = remote.takeRedirect();
  if (redirect === undefined) return fail('no sign-in page was offered');
  const outcome = await signIn(server, policy, ctx, redirect, { reason, held }, signal);
  if ('end' in outcome) {
    await remote.abandonSignIn();
    return fail(outcome.reason);
  }
  const code = outcome.params.get('code');
  if (code === null) return fail('the sign-in page sent no code back');
  try {
    const done = await auth(remote.provider, {
      serverUrl,
      authorizationCode: code,
      ...(outcome.params.get('iss') === null ? {} : { iss: outcome.params.get('iss') ?? '' }),
      fetchFn,
    });
    if (done !== 'AUTHORIZED') fail('the authorization server did not give a sign-in');
  } catch (error) {
    if (SignInRequiredError.isInstance(error)) throw error;
    fail(`the sign-in failed: ${messageOf(error)}`, error);
  }
}
