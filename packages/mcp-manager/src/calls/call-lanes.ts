// Batching: a server's calls run one at a time (`serialized`, the default), or side by side when
// they touch different paths (`path_scoped`, for a server declared to read and write files
// only). A call waits for every earlier call of its server that it conflicts with, in order of
// arrival, so no call overtakes one it conflicts with and none waits forever for one that does
// not conflict.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { raceAbort } from '../common/abort.js';

/** Argument names that hold a path, for `path_scoped` batching. */
const PATH_KEY = /path|file|dir|folder|source|destination|target|uri|cwd|root/i;

/** The most paths taken from one call's arguments; a call with more conflicts with every call. */
export const MAX_CALL_PATHS = 64;

interface Lane {
  /** Absolute paths; `undefined`: conflicts with every call. */
  readonly paths: readonly string[] | undefined;
  readonly done: Promise<void>;
}

function conflicts(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === undefined || b === undefined) return true;
  return a.some((x) => b.some((y) => x === y || isInside(x, y) || isInside(y, x)));
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** One path value as an absolute path, or `undefined` when it is not one. */
function asPath(value: string, base: string): string | undefined {
  if (value === '' || value.includes('\0')) return undefined;
  if (value.startsWith('file:')) {
    try {
      return path.resolve(fileURLToPath(value));
    } catch {
      return undefined;
    }
  }
  // Another scheme (https:, …) names no file here.
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return undefined;
  return path.resolve(base, value);
}

/**
 * The paths a call's arguments name, for `path_scoped` batching: the strings under argument
 * names that hold paths (`path`, `file`, `source`, `destination`, `uri`…, also in a list), as
 * absolute paths (a relative one from `base`). `undefined` — the call conflicts with every
 * other — when there is none or too many: a call whose paths are unknown must not run beside
 * one that might touch the same file. @internal
 *
 * @param input - The call's arguments.
 * @param base - The folder the server resolves relative paths from.
 */
export function callPaths(
  input: Readonly<Record<string, unknown>>,
  base: string,
): string[] | undefined {
  const found: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (!PATH_KEY.test(key)) continue;
    const values = Array.isArray(value) ? (value as unknown[]) : [value];
    for (const item of values) {
      if (typeof item !== 'string') continue;
      const resolved = asPath(item, base);
      if (resolved === undefined) return undefined;
      found.push(resolved);
      if (found.length > MAX_CALL_PATHS) return undefined;
    }
  }
  return found.length === 0 ? undefined : found;
}

/** One server's calls in flight and waiting, by what they touch. @internal */
export class CallLanes {
  readonly #lanes = new Set<Lane>();

  /**
   * Waits until every earlier call that conflicts with this one has ended, then holds its place
   * until `release` is called (call it once the call ended, in a `finally`).
   *
   * @param paths - The call's paths (`undefined`: every call conflicts with it).
   * @param signal - Stops the wait (the place is given up).
   * @returns The release.
   * @throws The signal's reason when it aborts first.
   */
  async enter(
    paths: readonly string[] | undefined,
    signal: AbortSignal | undefined,
  ): Promise<() => void> {
    const before = [...this.#lanes].filter((lane) => conflicts(lane.paths, paths));
    let end!: () => void;
    const lane: Lane = { paths, done: new Promise<void>((resolve) => (end = resolve)) };
    this.#lanes.add(lane);
    const release = (): void => {
      this.#lanes.delete(lane);
      end();
    };
    // No earlier call in the way (the usual case): no wait, no listener on the signal.
    if (before.length === 0) return release;
    try {
      await raceAbort(Promise.all(before.map((earlier) => earlier.done)), signal);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** How many calls are running or waiting (for tests and status). */
  get size(): number {
    return this.#lanes.size;
  }
}
