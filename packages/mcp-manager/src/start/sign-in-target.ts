import { defHash, type RemoteServerConfig, type ServerConfig } from '@garuda/mcp-config';
import { getMcpTrustEntry, type McpTrustEntry, type TrustStoreLike } from '@garuda/mcp-trust';
import { linkSignals } from '../common/abort.js';
import { InvalidOptionsError, ServerNotConnectedError } from '../errors.js';
import type { RemoteDeps } from './remote-connect.js';
import { hasStaticAuthorization } from './static-authorization.js';
import { serverPolicy, type ServerPolicy } from './server-policy.js';
import type { ServerState } from '../types.js';
import { quoteText } from '../common/text.js';

/** An OAuth scope name (RFC 6749 §3.3 characters), not too long. */
function isScopeName(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length <= 200 && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(value)
  );
}

/**
 * Checks the scopes a host asks `signIn()` for. @internal
 *
 * @param scopes - As the host passed them.
 * @returns The scopes.
 * @throws {@link InvalidOptionsError} for anything but a list of scope names.
 */
export function checkScopes(scopes: unknown): readonly string[] {
  if (!Array.isArray(scopes) || !scopes.every((scope) => isScopeName(scope))) {
    throw new InvalidOptionsError(
      'scopes',
      'must be a list of OAuth scope names (no spaces, quotes or backslashes)',
    );
  }
  return scopes;
}

/**
 * The remote server a `signIn()` is for: not a local one, and not one that sends its own
 * `Authorization` header. @internal
 *
 * @param config - The configured server.
 * @param name - Its name, as the host gave it.
 * @returns The remote server.
 * @throws {@link InvalidOptionsError} otherwise.
 */
export function signInTarget(config: ServerConfig, name: string): RemoteServerConfig {
  if (config.kind !== 'remote') {
    throw new InvalidOptionsError(
      'name',
      `${quoteText(name)} is a local server: only remote servers sign in`,
    );
  }
  if (hasStaticAuthorization(config)) {
    throw new InvalidOptionsError(
      'name',
      `${quoteText(name)} sends its own Authorization header (in its configuration), so it does not sign in with OAuth`,
    );
  }
  return config;
}

/**
 * Whether a server's definition has been allowed: remembered in the store, or this session.
 * @internal
 *
 * @param config - The server.
 * @param policy - Its policy (its trust key).
 * @param store - The trust store.
 * @param session - The trust given with "once".
 * @returns True when it was allowed.
 */
export async function isAllowed(
  config: ServerConfig,
  policy: ServerPolicy,
  store: TrustStoreLike,
  session: ReadonlyMap<string, McpTrustEntry>,
): Promise<boolean> {
  const def = defHash(config.def);
  if (session.get(policy.trustKey)?.def === def) return true;
  const stored = await getMcpTrustEntry(store, policy.trustKey).catch(() => undefined);
  return stored?.def === def;
}

/**
 * The sign-in of `McpManager.signIn()`: a remote server's, after its consent (a project server
 * must have been allowed already). @internal
 *
 * @throws {@link InvalidOptionsError} (not a server to sign in to), {@link ServerNotConnectedError}
 *   (a project server not allowed yet), and what `forceSignIn` throws.
 */
export async function signInNow(
  known: ServerConfig,
  name: string,
  state: ServerState | undefined,
  deps: {
    readonly root: string;
    readonly store: TrustStoreLike;
    readonly session: ReadonlyMap<string, McpTrustEntry>;
    readonly remote: RemoteDeps;
  },
  scopes: readonly string[],
  signals: readonly (AbortSignal | undefined)[],
): Promise<void> {
  const config = signInTarget(known, name);
  const policy = serverPolicy(config, deps.root);
  if (policy.askConsent && !(await isAllowed(config, policy, deps.store, deps.session))) {
    throw new ServerNotConnectedError(
      name,
      state ?? 'stopped',
      'it comes from the project file and you have not allowed it yet: start it first',
    );
  }
  const { controller, detach } = linkSignals(...signals);
  try {
    // The connecting code (the SDK's client and auth) is loaded when it is first needed.
    const { forceSignIn } = await import('./remote-connect.js');
    await forceSignIn(config, policy, deps.remote, scopes, controller.signal);
  } finally {
    detach();
  }
}
