import { InvalidPolicyError } from './errors.js';

/**
 * The variables a server gets from the caller's environment on every platform; everything else
 * of the caller's stays out (API keys, tokens, `SSH_AUTH_SOCK`, `LD_PRELOAD`, `NODE_OPTIONS`…).
 * A server that needs more names them in its own `env`, which the user consents to.
 *
 * @example
 * ```ts
 * SANDBOX_ENV_ALLOWLIST.includes('PATH'); // true
 * ```
 */
export const SANDBOX_ENV_ALLOWLIST: readonly string[] = Object.freeze([
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
]);

/**
 * The variables added to {@link SANDBOX_ENV_ALLOWLIST} on Windows, where programs cannot start
 * or find their folders without them. Matched without regard to case there.
 *
 * @example
 * ```ts
 * WINDOWS_ENV_ALLOWLIST.includes('SystemRoot'); // true
 * ```
 */
export const WINDOWS_ENV_ALLOWLIST: readonly string[] = Object.freeze([
  'SystemRoot',
  'windir',
  'ComSpec',
  'PATHEXT',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramData',
  'APPDATA',
  'LOCALAPPDATA',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'SystemDrive',
  'HOMEDRIVE',
  'HOMEPATH',
]);

/**
 * Checks one variable of a server's own `env`. Names must be non-empty and free of `=` and NUL
 * (a `=` would split differently in the child, and NUL cannot cross `execve`). @internal
 */
function checkServerVariable(name: string, value: unknown): void {
  if (name === '' || name.includes('=') || name.includes('\0')) {
    throw new InvalidPolicyError(
      'env',
      `has an invalid variable name ${JSON.stringify(name)}: names must be non-empty and contain no "=" or NUL.`,
    );
  }
  if (typeof value !== 'string') {
    throw new InvalidPolicyError(`env.${name}`, 'must be a string.');
  }
  if (value.includes('\0')) {
    throw new InvalidPolicyError(
      `env.${name}`,
      'contains a NUL character, which no program can receive.',
    );
  }
}

/** A caller's value that may be passed on: a string, no NUL, not an exported bash function. */
function usableBaseValue(value: unknown): value is string {
  // `() { …; }` values are bash functions exported with `export -f` (the Shellshock vector):
  // a server's shell would define them, so they never cross even under an allowlisted name.
  return typeof value === 'string' && !value.startsWith('()') && !value.includes('\0');
}

/**
 * The environment a server starts with: the allowlisted variables from the caller's environment
 * ({@link SANDBOX_ENV_ALLOWLIST}, plus {@link WINDOWS_ENV_ALLOWLIST} on Windows, where names are
 * matched without regard to case and written in the allowlist's spelling), then the server's own
 * `env` on top. Values that start with `()` (exported bash functions) or contain NUL are skipped;
 * nothing else of the caller's environment is copied.
 *
 * The result is a fresh plain object, safe to pass as `spawn`'s `env` (a `__proto__` name is an
 * ordinary own key, never a prototype).
 *
 * @param baseEnv - The caller's environment (e.g. `process.env`, read by the caller). Only the
 *   allowlist is taken from it.
 * @param serverEnv - The server's own variables, already expanded; they win over `baseEnv`.
 * @param platform - The platform the server runs on (default `process.platform`); `win32`
 *   widens the allowlist and makes names case-insensitive.
 * @returns The server's environment.
 * @throws {@link InvalidPolicyError} when a name in `serverEnv` is empty or contains `=` or NUL,
 *   or a value is not a string or contains NUL.
 * @example
 * ```ts
 * const env = sandboxEnv(process.env, { GITHUB_TOKEN: token });
 * // { HOME, PATH, LANG, … (those that are set), GITHUB_TOKEN }
 * ```
 */
export function sandboxEnv(
  baseEnv: Readonly<Record<string, string | undefined>>,
  serverEnv: Readonly<Record<string, string>> = {},
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const windows = platform === 'win32';
  const allowlist = windows
    ? [...SANDBOX_ENV_ALLOWLIST, ...WINDOWS_ENV_ALLOWLIST]
    : SANDBOX_ENV_ALLOWLIST;
  // Keyed by the name as it will be compared: lower case on Windows, exact elsewhere.
  const key = (name: string): string => (windows ? name.toLowerCase() : name);
  const out = new Map<string, [name: string, value: string]>();

  if (windows) {
    const found = new Map<string, unknown>();
    for (const name of Object.keys(baseEnv)) {
      const lower = name.toLowerCase();
      // A plain object can hold both `Path` and `PATH`; the first one wins, as in key order.
      if (!found.has(lower)) found.set(lower, baseEnv[name]);
    }
    for (const name of allowlist) {
      const value = found.get(name.toLowerCase());
      if (usableBaseValue(value)) out.set(key(name), [name, value]);
    }
  } else {
    for (const name of allowlist) {
      if (!Object.hasOwn(baseEnv, name)) continue;
      const value = baseEnv[name];
      if (usableBaseValue(value)) out.set(key(name), [name, value]);
    }
  }

  for (const name of Object.keys(serverEnv)) {
    const value = serverEnv[name];
    checkServerVariable(name, value);
    out.delete(key(name));
    out.set(key(name), [name, value as string]);
  }
  return Object.fromEntries(out.values());
}
