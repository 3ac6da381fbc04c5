// A pseudo-terminal from util-linux `script` (the BSD one on macOS), on which garuda-mcp runs as
// it would for a person.
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { afterEach, beforeEach } from 'vitest';
import { BIN } from './paths.js';
import { CliWorld } from './world.js';

/** The terminal output without its CSI sequences (colours, cursor moves). */
export function plain(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A command on a terminal, and what the terminal showed so far (`screen.output` grows). */
export interface OnTerminal {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly screen: { output: string };
}

/**
 * Gives each test of the calling file a world of its own, and a way to run `garuda-mcp args…` on
 * a pseudo-terminal in it. After each test its terminals are closed (a failed test must leave
 * nothing running) and its world removed.
 *
 * @param use - Receives each test's world before the test runs.
 * @returns Runs `garuda-mcp args…` on a new terminal in the current test's world.
 */
export function terminalsPerTest(
  use: (world: CliWorld) => void,
): (args: readonly string[], env?: Record<string, string>) => OnTerminal {
  let world: CliWorld | undefined;
  const terminals: ChildProcess[] = [];
  beforeEach(async () => {
    world = await CliWorld.create();
    use(world);
  });
  afterEach(async () => {
    for (const child of terminals.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const closed = new Promise((resolve) => child.once('close', resolve));
      // Closing the terminal hangs up on garuda-mcp, which then stops its servers and cleans up.
      child.kill('SIGTERM');
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    await world?.cleanup();
    world = undefined;
  });
  return (args, env = {}) => {
    if (world === undefined) throw new Error('onTerminal runs inside a test');
    const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
    // util-linux `script` takes the command with -c; the BSD one (macOS) after the log file.
    const scriptArgs =
      process.platform === 'linux'
        ? ['-q', '-e', '-f', '-c', command, '/dev/null']
        : ['-q', '/dev/null', '/bin/sh', '-c', command];
    const child = spawn('script', scriptArgs, {
      cwd: world.root,
      env: { ...world.env(env), TERM: 'xterm-256color', COLUMNS: '160', LINES: '50' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const screen = { output: '' };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (screen.output += chunk));
    terminals.push(child);
    return { child, screen };
  };
}
