// Secrets written out in a local server's arguments, found with the import's own rule, so that
// `garuda-mcp add` can warn about `--api-key=sk_…` as it does about a secret env value.
import { argIsSecret, ASSIGNMENT, FLAG, FLAG_WITH_VALUE } from './convert-values.js';

/** One argument that holds a secret written out (see {@link secretArguments}). */
export interface SecretArgument {
  /** Its index in `args`. */
  readonly index: number;
  /**
   * The argument as it may be shown, without the secret: `--api-key=…`, `--token …` (the
   * option before it), `API_KEY=…`, or `…` for a bare value.
   */
  readonly shown: string;
  /**
   * The environment variable the secret could come from instead, named after its option
   * (`--api-key` → `API_KEY`, `API_KEY=` → `API_KEY`); `undefined` for a bare value.
   */
  readonly variable: string | undefined;
}

/** `api-key` → `API_KEY`: an option's name as an environment variable's. */
function variableOf(option: string): string | undefined {
  const name = option
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[A-Z_][A-Z0-9_]*$/.test(name) ? name : undefined;
}

/**
 * The arguments of a local server that hold a secret written out: a token-like value, or the
 * value of a secret-looking option (`--api-key=sk_…`, `--access-token …`, `--token …`,
 * `API_KEY=…` as docker's `-e` takes it). Arguments are passed as written (no `${NAME}`
 * expansion), so such a secret is stored in the config file; the way out is an env entry that
 * takes `${NAME}`, when the server can read it from its environment. `${…}` is not a secret.
 *
 * @param args - The server's arguments.
 * @returns Each such argument, in order, shown without its secret.
 * @example
 * ```ts
 * secretArguments(['-y', 'server', '--api-key=sk_live_0123456789abcdef']);
 * // [{ index: 2, shown: '--api-key=…', variable: 'API_KEY' }]
 * ```
 */
export function secretArguments(args: readonly string[]): SecretArgument[] {
  const found: SecretArgument[] = [];
  for (let index = 0; index < args.length; index++) {
    if (!argIsSecret(args, index)) continue;
    const arg = args[index] ?? '';
    const withValue = FLAG_WITH_VALUE.exec(arg);
    const assignment = withValue === null ? ASSIGNMENT.exec(arg) : null;
    const before = index > 0 ? FLAG.exec(args[index - 1] ?? '') : null;
    if (withValue !== null) {
      const option = withValue[1] ?? '';
      const dashes = arg.startsWith('--') ? '--' : '-';
      found.push({ index, shown: `${dashes}${option}=…`, variable: variableOf(option) });
    } else if (assignment !== null) {
      const name = assignment[1] ?? '';
      found.push({ index, shown: `${name}=…`, variable: name });
    } else if (before !== null && !arg.startsWith('-')) {
      const option = before[1] ?? '';
      found.push({ index, shown: `${args[index - 1] ?? ''} …`, variable: variableOf(option) });
    } else {
      found.push({ index, shown: '…', variable: undefined });
    }
  }
  return found;
}
