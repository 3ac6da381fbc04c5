import type { RemoteServerConfig } from '@garuda/mcp-config';
import {
  GarudaOAuthProvider,
  USER_SCOPE,
  parseRedirectUrl,
  waitForCallback,
  type AuthStore,
  type PendingSignIn,
} from '@garuda/mcp-oauth';
import { createHttpTransport } from '@garuda/mcp-transport';
import { UnauthorizedError, type Transport } from '@modelcontextprotocol/client';
import { linkSignals } from './abort.js';
import type { OpenResult } from './server-connection.js';
import { messageOf, oneLine } from './text.js';
import type { ManagerLogger, SignInRequest } from './types.js';

/** Authorization attempts per connect (a server that keeps answering 401 stops here). */
export const MAX_AUTHORIZATIONS = 3;

/** Opens the sign-in page in the user's browser. @internal */
export type BrowserOpener = (
  url: string,
  options: { readonly allowHttpLocalhost: boolean },
) => unknown;

/** What a remote connect needs from the manager. @internal */
export interface RemoteContext {
  /** The project root: the sign-in scope of a project's server. */
  readonly root: string;
  /** The fetch for a project's server (public addresses only). */
  readonly projectFetch: typeof fetch;
  /** The sign-ins (`<home>/mcp-auth.json`). */
  readonly authStore: AuthStore;
  /** Asks "Sign in to x?" (one question at a time); undefined when the prompter cannot. */
  readonly signIn: ((request: SignInRequest, signal: AbortSignal) => Promise<boolean>) | undefined;
  readonly openBrowser: BrowserOpener;
  /** Asks for a pasted redirect address; undefined when the prompter cannot. */
  readonly pasteRedirect:
    ((request: SignInRequest, signal: AbortSignal) => Promise<string | undefined>) | undefined;
  readonly signal: AbortSignal;
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

/** True when the config gives an `Authorization` header: it wins over OAuth. @internal */
export function hasStaticAuthorization(server: RemoteServerConfig): boolean {
  return Object.keys(server.headers).some((name) => name.toLowerCase() === 'authorization');
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

function failed(reason: string, cancelled = false): RemoteOpenResult {
  return { ok: false, reason, cancelled, signedIn: false };
}

type SignInOutcome =
  { readonly params: URLSearchParams } | { readonly reason: string; readonly cancelled: boolean };

/** Asks, opens the browser, tells the URL, and waits for the callback. */
async function signIn(
  server: RemoteServerConfig,
  ctx: RemoteContext,
  redirect: { readonly url: URL; readonly pending: PendingSignIn },
): Promise<SignInOutcome> {
  const request: SignInRequest = {
    server: server.name,
    url: server.url.href,
    signInOrigin: redirect.url.origin,
    callback: redirect.pending.redirectUri,
  };
  let yes: boolean;
  try {
    yes = ctx.signIn === undefined ? false : (await ctx.signIn(request, ctx.signal)) === true;
  } catch (error) {
    if (ctx.signal.aborted) return { reason: 'its start was cancelled', cancelled: true };
    return { reason: `the sign-in question failed: ${messageOf(error)}`, cancelled: false };
  }
  if (!yes) return { reason: 'it needs a sign-in, and you skipped it', cancelled: false };
  const allowHttpLocalhost = server.source === 'user';
  // The callback and a pasted address race; the loser is stopped when the winner is in.
  const done = new AbortController();
  const { controller, detach } = linkSignals(ctx.signal, done.signal);
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
          .then(() => ctx.openBrowser(redirect.url.href, { allowHttpLocalhost }))
          .catch((error: unknown) =>
            ctx.logger?.warn?.(`could not open the browser: ${oneLine(messageOf(error))}`),
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
    if (ctx.signal.aborted) return { reason: 'its start was cancelled', cancelled: true };
    return { reason: `the sign-in failed: ${messageOf(error)}`, cancelled: false };
  } finally {
    done.abort();
    detach();
  }
}

/**
 * Connects to a remote server: with the config's own `Authorization` header as is, else with
 * OAuth (stored tokens reused; on a 401 the sign-in question, the browser, the callback,
 * `finishAuth`, and a new transport), at most {@link MAX_AUTHORIZATIONS} sign-ins. A user's
 * server uses the global fetch, a project's the pinned one. Never throws. @internal
 *
 * @param server - The remote server.
 * @param ctx - The manager's side.
 * @param open - Connects and lists tools over one transport.
 * @returns The connection, or why it failed; `signedIn` when OAuth tokens are in use.
 */
export async function openRemote(
  server: RemoteServerConfig,
  ctx: RemoteContext,
  open: (transport: Transport) => Promise<OpenResult>,
): Promise<RemoteOpenResult> {
  const user = server.source === 'user';
  const fetchFn: typeof fetch = user ? (input, init) => fetch(input, init) : ctx.projectFetch;
  const requestInit = { headers: staticHeaders(server) };
  if (hasStaticAuthorization(server)) {
    const result = await open(createHttpTransport(server.url, { fetch: fetchFn, requestInit }));
    return { ...result, signedIn: false };
  }
  let redirect: { url: URL; pending: PendingSignIn } | undefined;
  const provider = new GarudaOAuthProvider({
    store: ctx.authStore,
    scope: user ? USER_SCOPE : ctx.root,
    name: server.name,
    serverUrl: server.url,
    onRedirect: (url, pending) => {
      redirect = { url, pending };
    },
    allowHttpLoopback: user,
    ...(ctx.logger ? { logger: ctx.logger } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    redirect = undefined;
    const transport = createHttpTransport(server.url, {
      fetch: fetchFn,
      authProvider: provider,
      requestInit,
    });
    const result = await open(transport);
    if (result.ok) {
      const tokens = await Promise.resolve(provider.tokens()).catch(() => undefined);
      return { ...result, signedIn: tokens !== undefined };
    }
    if (result.cancelled || !isUnauthorized(result.error) || redirect === undefined) {
      return { ...result, signedIn: false };
    }
    if (attempt > MAX_AUTHORIZATIONS) {
      return failed(`it still asked for a sign-in after ${MAX_AUTHORIZATIONS} sign-ins`);
    }
    const outcome = await signIn(server, ctx, redirect);
    if ('reason' in outcome) return failed(outcome.reason, outcome.cancelled);
    try {
      await transport.finishAuth(outcome.params);
    } catch (error) {
      if (ctx.signal.aborted) return failed('its start was cancelled', true);
      return failed(`the sign-in failed: ${messageOf(error)}`);
    }
  }
}
