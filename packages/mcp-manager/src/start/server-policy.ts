// Every decision that differs between a server of the user's own file and one a project brings,
// in one place. The rest of the manager reads these fields and never asks `source` again, so a
// reviewer sees the whole difference here.
//
// What does NOT differ, on purpose: the OS sandbox (a user's server is still code from a
// registry, so it gets the same hidden credential paths, hidden Garuda home, read-only project
// metadata and no network unless its definition says so), the cleaning of everything a server
// sends, the approval of every call, and the pins of its tools (only what a change does differs).
import type { ServerSource } from '@garuda/mcp-config';
import type { ServerOrigin } from '@garuda/internal';
import { USER_SCOPE } from '@garuda/mcp-oauth';
import { mcpTrustKey } from '@garuda/mcp-trust';

/** What the manager does for one server because of where its definition comes from. @internal */
export interface ServerPolicy {
  /** The file the definition comes from. */
  readonly source: ServerSource;
  /** Its entry in the trust store: the user's own, or the project root's. */
  readonly trustKey: string;
  /**
   * Whether the definition needs consent before anything starts. A project's file is written by
   * whoever wrote the repository; the user's own file is the user's word already.
   */
  readonly askConsent: boolean;
  /**
   * When the trust store cannot be read: `fail` the start (a project server cannot be checked
   * against the consent it needs), or `unpinned` (the user's own server runs; its tools are not
   * compared with their pins this time, and a notice says so).
   */
  readonly unreadableStore: 'fail' | 'unpinned';
  /**
   * When its tools differ from their pins: `announce` (a notice, and the new tools are pinned:
   * the user controls that server's install) or `ask` (the changed-tools consent, with the diff;
   * a no stops it).
   */
  readonly toolChange: 'announce' | 'ask';
  /**
   * The fetch of its MCP and OAuth traffic: `global` (the user's own server may be on their
   * network or a VPN) or `pinned` (public addresses only: a repository must not make the client
   * reach the user's intranet, cloud metadata or localhost).
   */
  readonly fetch: 'global' | 'pinned';
  /**
   * Whether `http:` is allowed on a loopback address for its authorization server and its
   * sign-in page (a local development server of the user's). Never for a project's server.
   */
  readonly allowHttpLoopback: boolean;
  /** The scope its sign-ins are stored under in `mcp-auth.json`: `user`, or the project root. */
  readonly signInScope: string;
  /**
   * Whether its `DOCKER_HOST` / `CONTAINER_HOST` may pick the container engine's socket. A
   * project's file cannot: any socket it named would be opened to the container's engine.
   */
  readonly engineSocketFromEnv: boolean;
  /**
   * Its home folder under `serverHomesDir`: `by-name` (the user's server has one home, whatever
   * project it runs for) or `by-project` (`<name>.<hash of the root>`: a repository's server
   * never reads what the same name left in another project's home).
   */
  readonly home: 'by-name' | 'by-project';
}

const USER: Omit<ServerPolicy, 'trustKey'> = {
  source: 'user',
  askConsent: false,
  unreadableStore: 'unpinned',
  toolChange: 'announce',
  fetch: 'global',
  allowHttpLoopback: true,
  signInScope: USER_SCOPE,
  engineSocketFromEnv: true,
  home: 'by-name',
};

const PROJECT: Omit<ServerPolicy, 'trustKey' | 'signInScope'> = {
  source: 'project',
  askConsent: true,
  unreadableStore: 'fail',
  toolChange: 'ask',
  fetch: 'pinned',
  allowHttpLoopback: false,
  engineSocketFromEnv: false,
  home: 'by-project',
};

/**
 * The policy of one server. @internal
 *
 * @param server - Its name and the file it comes from.
 * @param root - The project root (absolute): a project server's trust and sign-ins are its own.
 * @returns A plain, frozen object.
 */
export function serverPolicy(
  server: { readonly name: string; readonly source: ServerSource },
  root: string,
): ServerPolicy {
  if (server.source === 'user') {
    return Object.freeze({ ...USER, trustKey: mcpTrustKey({ kind: 'user' }, server.name) });
  }
  return Object.freeze({
    ...PROJECT,
    trustKey: mcpTrustKey({ kind: 'project', root }, server.name),
    signInScope: root,
  });
}

/**
 * Where a server comes from, for the rule of names that clash: the host's own (`servers` option),
 * the user's file, another client's project file read in place (`imported`), or the project's
 * own file. Both of the last two come from the repository; the project's own file ranks above the
 * other client's file, as `loadConfig` ranks them for a name both define. @internal
 *
 * @param server - Its source and the file it was read from.
 * @param from - The label of the host's servers and the other client's project file, if read.
 * @returns Its origin.
 */
export function originOf(
  server: { readonly source: ServerSource; readonly file: string },
  from: { readonly hostFile: string; readonly importedFile: string | undefined },
): ServerOrigin {
  if (server.source === 'user') return server.file === from.hostFile ? 'host' : 'user';
  return server.file === from.importedFile ? 'imported' : 'project';
}

/**
 * The policy for a server known only from its stored sign-ins (a logout before `start()`, or of
 * a server no longer configured): the user's own only when every one of them is the user's, so a
 * mix of both is treated as a project's. @internal
 *
 * @param name - The server's name.
 * @param scopes - The scopes of its stored sign-ins.
 * @param root - The project root.
 * @returns The policy.
 */
export function storedSignInPolicy(
  name: string,
  scopes: readonly string[],
  root: string,
): ServerPolicy {
  const user = scopes.every((scope) => scope === USER_SCOPE);
  return serverPolicy({ name, source: user ? 'user' : 'project' }, root);
}

/**
 * The fetch a policy names: the global one, or `pinned`. Every request to a remote server and
 * its authorization server (sign-in, refresh, revocation) goes through this. @internal
 *
 * @param policy - The server's policy.
 * @param pinned - The manager's strict fetch (public addresses only).
 * @returns The fetch to use.
 */
export function policyFetch(policy: ServerPolicy, pinned: typeof fetch): typeof fetch {
  return policy.fetch === 'pinned' ? pinned : (input, init) => fetch(input, init);
}
