import type { Command, CommandOption } from './shared/command.js';
import { ALWAYS_FLAGS, GLOBAL_FLAGS, type GlobalFlag } from './shared/global-flags.js';
import { COMMANDS, commandNamed } from './registry.js';

const GLOBAL_FOOTER = `Without a terminal every question is answered "no" unless a flag answers it.
Colours only on a terminal, never with NO_COLOR.

Exit codes: 0 ok · 1 the tool reported an error · 2 usage (also an unknown server or tool) ·
            3 configuration problem · 4 server failed, denied or declined · 130 interrupted (Ctrl-C)`;

/** The global options block: every one, or only those `only` names (with help and version). */
function globalOptions(only?: readonly GlobalFlag[]): string {
  const shown = (Object.keys(GLOBAL_FLAGS) as GlobalFlag[]).filter(
    (flag) => only === undefined || only.includes(flag),
  );
  return [
    'Options:',
    ...shown.flatMap((flag) => GLOBAL_FLAGS[flag].help),
    ...Object.values(ALWAYS_FLAGS).flatMap((flag) => flag.help),
    '',
    GLOBAL_FOOTER,
  ].join('\n');
}

/** A command's own options, the flags in one column. */
function optionLines(options: readonly CommandOption[]): string[] {
  const width = Math.max(...options.map(([flag]) => flag.length));
  return options.flatMap(([flag, text]) =>
    text.split('\n').map((line, i) => `  ${(i === 0 ? flag : '').padEnd(width)}  ${line}`),
  );
}

/** One command's help: usage, summary, details, its own options and the global ones it takes. */
function commandHelp(entry: Command): string {
  return [
    `Usage: ${entry.usage}`,
    '',
    entry.summary,
    ...(entry.details ? ['', entry.details] : []),
    ...(entry.options ? ['', `Options of ${entry.name}:`, ...optionLines(entry.options)] : []),
    '',
    globalOptions(entry.globals),
  ].join('\n');
}

/** The whole help text, or one command's. */
export function helpText(command?: string): string {
  const entry = command === undefined ? undefined : commandNamed(command);
  if (entry !== undefined) return commandHelp(entry);
  const width = Math.max(...COMMANDS.map(({ name }) => name.length));
  return [
    'garuda-mcp: a secure MCP client. Servers run sandboxed, every call is approved, tools are pinned.',
    '',
    'Usage: garuda-mcp <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map(({ name, summary }) => `  ${name.padEnd(width)}  ${summary}`),
    '',
    globalOptions(),
  ].join('\n');
}
