import type { RemoteServerConfig } from '@garuda/mcp-config';
import type { AuthStore, RevokeResult } from '@garuda/mcp-oauth';
import { policyFetch, serverPolicy, storedSignInPolicy } from './server-policy.js';
import { UnknownServerError } from '../errors.js';
import type { ServerRegistry } from './server-registry.js';
import type { ManagerLogger } from '../types.js';
import { quoteText } from '../common/text.js';

/** What a sign-out needs of the manager. @internal */
export interface SignOutDeps {
  readonly root: string;
  readonly authStore: AuthStore;
  readonly pinnedFetch: typeof fetch;
  readonly logger: ManagerLogger | undefined;
}

/**
 * Removes every stored sign-in of a server, then revokes its tokens (RFC 7009), through the
 * fetch its policy names. Without its configuration (before `start()`, or a server no longer
 * configured) the stored sign-ins say where it came from. @internal
 *
 * @param name - The server's name.
 * @param config - Its configuration, when it is configured.
 * @param deps - The stores and the strict fetch.
 * @param signal - Stops the revocation requests.
 * @returns What was removed and revoked.
 */
export async function signOut(
  name: string,
  config: RemoteServerConfig | undefined,
  deps: SignOutDeps,
  signal: AbortSignal | undefined,
): Promise<RevokeResult> {
  const stored =
    config === undefined
      ? (await deps.authStore.list().catch(() => [])).filter((entry) => entry.name === name)
      : [];
  const policy =
    config === undefined
      ? storedSignInPolicy(
          name,
          stored.map((entry) => entry.scope),
          deps.root,
        )
      : serverPolicy(config, deps.root);
  // Revoking speaks OAuth through the SDK's client: loaded on the first sign-out.
  const { revoke } = await import('@garuda/mcp-oauth');
  return revoke({
    serverUrl: config?.url ?? stored[0]?.url ?? 'https://invalid.invalid/',
    store: deps.authStore,
    name,
    fetch: policyFetch(policy, deps.pinnedFetch),
    allowHttpLoopback: policy.allowHttpLoopback,
    ...(signal ? { signal } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
}

/**
 * `McpManager.logout()`: the sign-out of a configured (or stored) remote server, and the stop of
 * its connection when that was signed in with OAuth, so no tool of a signed-out server still
 * answers. @internal
 *
 * @throws {@link UnknownServerError} when `name` is a configured local server.
 */
export async function logoutServer(
  name: string,
  registry: ServerRegistry,
  deps: SignOutDeps,
  signal: AbortSignal | undefined,
): Promise<RevokeResult> {
  const record = registry.records.get(name);
  if (record !== undefined && record.config.kind !== 'remote') {
    throw new UnknownServerError(name, quoteText(name));
  }
  const config = record?.config.kind === 'remote' ? record.config : undefined;
  const result = await signOut(name, config, deps, signal);
  if (record?.signedIn === true) {
    await registry.stop(record, 'you signed out');
    registry.setState(record, 'stopped', 'you signed out (reload it to sign in again)');
  }
  if (record !== undefined) record.signedIn = false;
  return result;
}
