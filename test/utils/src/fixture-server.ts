import { fileURLToPath } from 'node:url';
import {
  STDIO_MODES,
  normalTools,
  type EscapeAttemptName,
  type StdioFixtureMode,
} from '../fixtures/tools.mjs';

/** Absolute path of the stdio fixture server (`node <FIXTURE_SERVER> <mode>`). */
export const FIXTURE_SERVER: string = fileURLToPath(
  new URL('../fixtures/mcp-server.mjs', import.meta.url),
);

/** Every mode the stdio fixture accepts. */
export const FIXTURE_MODES: readonly StdioFixtureMode[] = STDIO_MODES;

/** A spawnable command line, in the shape a server definition or a transport takes. */
export interface FixtureCommand {
  command: string;
  args: string[];
}

/**
 * The command that starts the stdio fixture in `mode`, with the Node binary running the tests.
 *
 * @param mode - one of {@link FIXTURE_MODES}
 * @returns `{ command: process.execPath, args: [FIXTURE_SERVER, mode] }`
 * @throws TypeError when `mode` is not a fixture mode (the server would exit 2)
 * @example
 * const { command, args } = fixtureCommand('normal');
 * const transport = new ProcessTransport({ command, args });
 */
export function fixtureCommand(mode: StdioFixtureMode): FixtureCommand {
  if (!FIXTURE_MODES.includes(mode)) {
    throw new TypeError(`unknown fixture mode ${JSON.stringify(mode)}`);
  }
  return { command: process.execPath, args: [FIXTURE_SERVER, mode] };
}

/** The tools the `normal` mode lists, in order. */
export const NORMAL_TOOL_NAMES: readonly string[] = Object.freeze(
  normalTools().map((tool) => tool.name),
);

/** One attempt of the `escape` tool. */
export interface EscapeAttempt {
  ok: boolean;
  /** errno code (`EROFS`, `EACCES`, `ENOENT`, `ECONNREFUSED`, …), `SKIPPED`, or `EXIT_<n>`. */
  code?: string;
  detail?: string;
}

/** The JSON the `escape` tool returns as its text. */
export type EscapeReport = Record<EscapeAttemptName, EscapeAttempt>;
