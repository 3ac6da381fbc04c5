import { parseArgs } from 'node:util';
import type { CommandContext } from './context.js';
import { didYouMean } from './did-you-mean.js';
import { CliError, ExitCode, usageError } from './exit-codes.js';
import { helpText } from './help.js';
import type { CliIo } from './io.js';
import { Output } from './output.js';
import { COMMANDS, commandNamed } from './registry.js';
import { type Command, type CommandArgs, flagOf, positionalCount } from './shared/command.js';
import { ALWAYS_FLAGS, GLOBAL_FLAGS } from './shared/global-flags.js';
import { CLI_VERSION } from './version.js';

type ParseOptions = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** A command's own flags (not the global ones it lists among its options), by name. */
function ownFlags(command: Command): Map<string, 'string' | 'boolean'> {
  return new Map(
    (command.options ?? [])
      .map(flagOf)
      .filter(({ name }) => !Object.hasOwn(GLOBAL_FLAGS, name))
      .map(({ name, type }) => [name, type]),
  );
}

/** Every flag any command takes: the command line is read once, then checked per command. */
function allFlags(): ParseOptions {
  const options: ParseOptions = {};
  for (const [name, { type, ...rest }] of Object.entries({ ...GLOBAL_FLAGS, ...ALWAYS_FLAGS })) {
    options[name] = {
      type,
      ...('multiple' in rest ? { multiple: rest.multiple } : {}),
      ...('short' in rest ? { short: rest.short } : {}),
    };
  }
  for (const command of COMMANDS) {
    for (const [name, type] of ownFlags(command)) {
      options[name] = { type, ...(command.repeatable?.includes(name) ? { multiple: true } : {}) };
    }
  }
  return options;
}

/** Options that belong to some commands only (each appears in those commands' help). */
export const COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = (() => {
  const byOption: Record<string, string[]> = {};
  for (const command of COMMANDS) {
    for (const name of ownFlags(command).keys()) {
      (byOption[name] ??= []).push(command.name);
    }
  }
  return byOption;
})();

/** Whether `command` takes the flag `name` (its own, a global it declares, help or version). */
function takes(command: Command, name: string): boolean {
  return (
    Object.hasOwn(ALWAYS_FLAGS, name) ||
    ownFlags(command).has(name) ||
    (command.globals as readonly string[]).includes(name)
  );
}

/**
 * A usage error for each command option given to a command that does not take it, naming who
 * takes it. A global flag is accepted by every command (scripts and aliases put `--home`,
 * `--trust-project` or `--sandbox-read` on every run), and only the commands that declare it
 * read it.
 */
function checkFlags(command: Command, values: CommandArgs['values']): void {
  for (const [option, value] of Object.entries(values)) {
    if (value === undefined || takes(command, option) || Object.hasOwn(GLOBAL_FLAGS, option)) {
      continue;
    }
    const commands = COMMANDS.filter((c) => takes(c, option)).map((c) => c.name);
    const of =
      commands.length === 1
        ? commands[0]
        : `${commands.slice(0, -1).join(', ')} and ${commands.at(-1) ?? ''}`;
    throw usageError(`--${option} is an option of ${of}, not of ${command.name}.`);
  }
}

/** The CLI's version, from its package.json at build time (see version.ts). */
export function cliVersion(): string {
  return CLI_VERSION;
}

/**
 * Runs `garuda-mcp` with `argv` (without `node` and the script) and returns the exit code. All
 * output goes through `io`; nothing here reads `process`.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const output = new Output(io);
  const controller = new AbortController();
  const onAbort = () => controller.abort(io.signal.reason);
  if (io.signal.aborted) onAbort();
  else io.signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await run(argv, io, output, controller);
  } catch (error) {
    if (error instanceof CliError) {
      output.err(
        error.exitCode === ExitCode.INTERRUPTED ? error.message : `garuda-mcp: ${error.message}`,
      );
      return error.exitCode;
    }
    if (controller.signal.aborted) {
      output.err('Interrupted.');
      return ExitCode.INTERRUPTED;
    }
    const message = error instanceof Error ? error.message : String(error);
    output.err(`garuda-mcp: ${message}`);
    return ExitCode.SERVER;
  } finally {
    io.signal.removeEventListener('abort', onAbort);
  }
}

/** The command line read against every flag: the words, the flags, and what follows `--`. */
function parse(argv: readonly string[]): CommandArgs {
  const dashes = argv.indexOf('--');
  const before = dashes === -1 ? [...argv] : argv.slice(0, dashes);
  try {
    const { values, positionals } = parseArgs({
      args: before,
      options: allFlags(),
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals, after: dashes === -1 ? [] : argv.slice(dashes + 1) };
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
}

/** The command to run, checked against its declaration; `undefined` when help was shown. */
function chosenCommand(argv: readonly string[], output: Output): [Command, CommandArgs] | number {
  const { values, positionals, after } = parse(argv);
  const [name, ...rest] = positionals;
  if (values.version === true) {
    output.out(cliVersion());
    return ExitCode.OK;
  }
  if (name === 'help') {
    output.out(helpText(rest[0]));
    return ExitCode.OK;
  }
  if (values.help === true || name === undefined) {
    output.out(helpText(name));
    return name === undefined && values.help !== true ? ExitCode.USAGE : ExitCode.OK;
  }
  const command = commandNamed(name);
  if (command === undefined) {
    throw usageError(
      `Unknown command ${JSON.stringify(name)}.${didYouMean(
        name,
        COMMANDS.map((c) => c.name),
        (c) => c,
      )}`,
    );
  }
  checkFlags(command, values);
  if (after.length > 0 && command.takesCommand !== true) {
    const takers = COMMANDS.filter((c) => c.takesCommand === true).map((c) => c.name);
    throw usageError(`Only ${takers.join(' and ')} takes -- <command> [args…].`);
  }
  return [command, { values, positionals: rest, after }];
}

async function run(
  argv: readonly string[],
  io: CliIo,
  output: Output,
  controller: AbortController,
): Promise<number> {
  const chosen = chosenCommand(argv, output);
  if (typeof chosen === 'number') return chosen;
  const [command, args] = chosen;
  // Loaded only once a command runs: checking the rules and folders needs parts of the manager
  // and the transport, which help and usage errors never do. It comes with the config commands'
  // code (see command-groups/config.ts), which every command but help loads anyway.
  const { resolveGlobals } = await import('./command-groups/config.js');
  const globals = await resolveGlobals(args.values, io);
  const ctx: CommandContext = {
    io,
    output,
    globals,
    signal: controller.signal,
    interrupt: () => controller.abort(new Error('interrupted')),
    version: cliVersion(),
    shownProblems: new Set(),
  };
  const { min, max } = command.positionals;
  positionalCount(args.positionals, min, max, command.usage);
  return command.run(ctx, args);
}
