/** Parts of a variable or header name that suggest it holds a secret (compared case-insensitively). */
export const SECRET_NAME_PARTS: readonly string[] = Object.freeze([
  'KEY',
  'TOKEN',
  'SECRET',
  'PASS',
  'CRED',
]);

/**
 * Whether a name looks like it holds a secret: it contains `KEY`, `TOKEN`, `SECRET`, `PASS` or
 * `CRED` in any case (`GITHUB_TOKEN`, `api_key`, `X-Api-Key`, `PASSWORD`, `AWS_CREDENTIALS`).
 * Deliberately broad: a false alarm costs a glance, a miss can cost a secret.
 *
 * @param name - A variable or header name.
 * @returns `true` when it looks secret.
 * @example
 * ```ts
 * looksSecret('GITHUB_TOKEN'); // true
 * looksSecret('PATH');         // false
 * ```
 */
export function looksSecret(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAME_PARTS.some((part) => upper.includes(part));
}

/**
 * The `${NAME}`s a value takes from the environment, in order, without duplicates (the same
 * syntax `expandEnv` of `@garuda/mcp-config` expands).
 *
 * @param value - An env or header value as written in a config file.
 * @returns The names, e.g. `['GITHUB_TOKEN']` for `Bearer ${GITHUB_TOKEN}`.
 * @example
 * ```ts
 * referencedNames('${A}:${B}:${A}'); // ['A', 'B']
 * ```
 */
export function referencedNames(value: string): string[] {
  const names: string[] = [];
  for (const match of value.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    const name = match[1] as string;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
