import { looksSecretName } from '@garuda/mcp-config';

/**
 * Whether a name looks like it holds a secret (`GITHUB_TOKEN`, `api_key`, `X-Api-Key`,
 * `PASSWORD`, `AWS_CREDENTIALS`, `Authorization`): `looksSecretName` of `@garuda/mcp-config`, the
 * one check the import, the CLI and this consent screen share. Deliberately broad: a false alarm
 * costs a glance, a miss can cost a secret.
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
  return looksSecretName(name);
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
