import type { CommandContext } from '../context.js';
import { usageError } from '../exit-codes.js';
import type { GlobalFlag } from './global-flags.js';

/** How a flag is typed: `--x` alone, or `--x <value>` (repeatable when `multiple`). */
export interface FlagSpec {
  readonly type: 'boolean' | 'string';
  readonly multiple?: boolean;
  readonly short?: string;
}

/** One of a command's own flags for help: the flag as typed (with its value) and what it does. */
export type CommandOption = readonly [flag: string, text: string];

/** `--url <url>` → `url`, a flag with a value; `--move` → `move`, a switch. */
export function flagOf(option: CommandOption): {
  readonly name: string;
  readonly type: 'string' | 'boolean';
} {
  const [name = '', value] = option[0].replace(/^--/, '').split(' ');
  return { name, type: value === undefined ? 'boolean' : 'string' };
}

/** The parsed command line a command's `run` gets. */
export interface CommandArgs {
  /** The words after the command name. */
  readonly positionals: readonly string[];
  /** The flags given (only those the command declares: own and global). */
  readonly values: Readonly<Record<string, string | boolean | string[] | undefined>>;
  /** What follows `--` (only for a command that declares `takesCommand`). */
  readonly after: readonly string[];
}

/**
 * Everything about one command: its help, the flags it accepts, its argument checks and what
 * it runs. `main` and `--help` are derived from these.
 */
export interface Command {
  readonly name: string;
  /** The usage line(s), `garuda-mcp …` (a second form on its own line). */
  readonly usage: string;
  /** One line for the command list of `--help`. */
  readonly summary: string;
  /** More detail for `<command> --help`. */
  readonly details?: string;
  /** The global flags it reads; any other global flag is a usage error on it. */
  readonly globals: readonly GlobalFlag[];
  /**
   * Its own flags, in help order: the flag as typed (a value after it makes it take one) and
   * what it does. A global flag may appear here for a line of its own in this command's help.
   */
  readonly options?: readonly CommandOption[];
  /** Which of its own flags may be given more than once. */
  readonly repeatable?: readonly string[];
  /** How many words may follow the command name. */
  readonly positionals: { readonly min: number; readonly max: number };
  /** Whether it takes `-- <command> [args…]`. */
  readonly takesCommand?: boolean;
  /** Runs the command; returns the exit code. */
  readonly run: (ctx: CommandContext, args: CommandArgs) => Promise<number>;
}

/** A usage error unless `min` ≤ the number of `args` ≤ `max`. */
export function positionalCount(
  args: readonly string[],
  min: number,
  max: number,
  usage: string,
): void {
  if (args.length < min || args.length > max) {
    throw usageError(`${args.length < min ? 'Missing' : 'Too many'} arguments. Usage: ${usage}`);
  }
}

/** A flag's value as a string, when given. */
export function stringOf(args: CommandArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A repeatable flag's values (none when not given). */
export function stringsOf(args: CommandArgs, name: string): string[] {
  const value = args.values[name];
  return Array.isArray(value) ? value : [];
}

/** Whether a boolean flag was given. */
export function isSet(args: CommandArgs, name: string): boolean {
  return args.values[name] === true;
}
