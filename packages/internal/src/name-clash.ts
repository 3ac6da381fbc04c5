// The one rule for names that clash. Server names, tool names and prompt names are squeezed into
// the names a model or a host sees (`mcp__<server>__<tool>`, `<server>__<prompt>`): `-` becomes
// `_`, long names are cut with a hash, and hosts may compare names without case. Two servers can
// so end up with one name. Who keeps it is decided here, by where each server's definition comes
// from first, so a repository can never take a name the user's own servers hold (whatever the
// sort order of the server names), and only then by name.

/**
 * Every {@link ServerOrigin}, the one whose names win a clash first. The project's own file comes
 * before other clients' project files, as `loadConfig` orders them (one of those with a name of
 * the project's own is ignored there, too).
 */
export const SERVER_ORIGINS = Object.freeze(['host', 'user', 'project', 'imported'] as const);

/**
 * Where a server's definition comes from, as far as its names are concerned: `host` (servers a
 * host passes in code), `user` (the user's own file), `project` (the project's
 * `.garuda/mcp.json`), `imported` (another client's project file read in place, such as
 * `.mcp.json`).
 */
export type ServerOrigin = (typeof SERVER_ORIGINS)[number];

/** A name one server wants to offer. */
export interface NameClaim<T> {
  /** The name as the model or the host sees it. */
  readonly name: string;
  /** The server offering it. */
  readonly server: string;
  /** Where that server's definition comes from. */
  readonly origin: ServerOrigin;
  /** What the caller offers under this name (a tool, a prompt). */
  readonly item: T;
}

/**
 * Every name a configured server can give starts with its prefix (`mcp__<server>__` for tools,
 * `<server>__` for prompts). A server's prefix belongs to it whatever its state, so a server of a
 * later origin cannot offer a name under it, not even while that server is down.
 */
export interface NamePrefix {
  readonly prefix: string;
  readonly server: string;
  readonly origin: ServerOrigin;
}

/** A name a server did not get because another server holds it. */
export interface NameClash {
  /** The name the losing server wanted. */
  readonly name: string;
  /** The losing server and where it comes from. */
  readonly server: string;
  readonly origin: ServerOrigin;
  /** The server that holds the name (or the prefix it falls under) and where it comes from. */
  readonly keptBy: string;
  readonly keptByOrigin: ServerOrigin;
}

/** What {@link settleNames} decided. */
export interface SettledNames<T> {
  /** The items offered, one per name, in the order of the claims given. */
  readonly kept: T[];
  /** The claims left out, with who keeps each name, ordered by origin, server and name. */
  readonly clashes: NameClash[];
}

/**
 * The key two names are compared by: lower case, since a host may treat `Search` and `search` as
 * one name. `-` and `_` stay apart (a tool name may use both, and hosts keep them apart).
 *
 * @param name - A model- or host-facing name.
 * @returns Its key.
 * @example
 * ```ts
 * nameKey('mcp__Notes__Search'); // 'mcp__notes__search'
 * ```
 */
export function nameKey(name: string): string {
  return name.toLowerCase();
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function rank(origin: ServerOrigin): number {
  const index = SERVER_ORIGINS.indexOf(origin);
  return index < 0 ? SERVER_ORIGINS.length : index;
}

/**
 * Decides who offers each name when servers' names clash: the one rule the manager (tools,
 * prompts) and hosts use.
 *
 * A name is compared by {@link nameKey} (without case). It is refused to a server when
 * - it falls under the prefix of another server of an earlier origin (`host`, then `user`, then
 *   `project`, then `imported`): a project's `my-notes` cannot offer `mcp__my_notes__…` while
 *   the user has a server `my_notes`, whether that server runs or not; or
 * - a claim that comes first already has it: claims are taken by origin, then server name, then
 *   name (code unit order).
 *
 * Nothing is decided by the order the claims are given in, so a repository cannot win by the
 * name it picks.
 *
 * @param claims - Every name the servers want to offer.
 * @param prefixes - The prefix of every configured server (see {@link NamePrefix}).
 * @returns The kept items (in the given order) and the clashes.
 * @example
 * ```ts
 * const { kept, clashes } = settleNames(
 *   [
 *     { name: 'mcp__my_notes__search', server: 'my-notes', origin: 'project', item: theirs },
 *     { name: 'mcp__my_notes__search', server: 'my_notes', origin: 'user', item: yours },
 *   ],
 *   [{ prefix: 'mcp__my_notes__', server: 'my_notes', origin: 'user' }],
 * );
 * // kept: [yours]; clashes: [{ name: 'mcp__my_notes__search', server: 'my-notes', keptBy: 'my_notes', … }]
 * ```
 */
export function settleNames<T>(
  claims: Iterable<NameClaim<T>>,
  prefixes: Iterable<NamePrefix> = [],
): SettledNames<T> {
  const given = [...claims];
  const reserved = [...prefixes].map((p) => ({
    ...p,
    key: nameKey(p.prefix),
    rank: rank(p.origin),
  }));
  const ordered = given
    .map((claim, index) => ({ claim, index, key: nameKey(claim.name), rank: rank(claim.origin) }))
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        byCodeUnit(a.claim.server, b.claim.server) ||
        byCodeUnit(a.claim.name, b.claim.name) ||
        a.index - b.index,
    );
  const holders = new Map<string, NameClaim<T>>();
  const keptAt = new Set<number>();
  const clashes: NameClash[] = [];
  for (const { claim, index, key, rank: claimRank } of ordered) {
    const lost = (keptBy: string, keptByOrigin: ServerOrigin) =>
      clashes.push({
        name: claim.name,
        server: claim.server,
        origin: claim.origin,
        keptBy,
        keptByOrigin,
      });
    const owner = reserved.find(
      (p) => p.rank < claimRank && p.server !== claim.server && key.startsWith(p.key),
    );
    if (owner !== undefined) {
      lost(owner.server, owner.origin);
      continue;
    }
    const holder = holders.get(key);
    if (holder !== undefined) {
      lost(holder.server, holder.origin);
      continue;
    }
    holders.set(key, claim);
    keptAt.add(index);
  }
  return { kept: given.filter((_, index) => keptAt.has(index)).map((c) => c.item), clashes };
}
