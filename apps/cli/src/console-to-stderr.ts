// stdout carries a command's result and nothing else (`--json` output is piped into jq, and
// `serve` speaks MCP on it). Dependencies print through the global `console` on their own: the
// MCP SDK's client calls `console.debug` when a server lacks a capability, and Node's console
// writes `log`, `info`, `debug`, `dir` and `table` to stdout. So the command's process gets a
// console whose every method writes to stderr.
// (`process` is the global one, as in bin.ts.)
import { Console } from 'node:console';

/**
 * Replaces the process's global `console` with one that writes everything to stderr. Called by
 * the `garuda-mcp` entry before any other module of the CLI (or a dependency) is loaded; the
 * CLI's own output goes through its `Output`, never through `console`.
 */
export function routeConsoleToStderr(): void {
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
}
