#!/usr/bin/env node
// The garuda-mcp command: builds the CLI's view of this process and runs it.
// `process` is the global one: importing `node:process` as a module reads every property of
// it once (the module's exports are copied), which creates stdin and builds the list of allowed
// NODE_OPTIONS flags, a few ms of every start for nothing.
import os from 'node:os';
import { routeConsoleToStderr } from './console-to-stderr.js';

// Before the commands and their dependencies are loaded (hence the dynamic import below), so
// nothing they print through `console` can reach stdout.
routeConsoleToStderr();
const { main } = await import('./main.js');

const controller = new AbortController();
let interrupts = 0;
const onSignal = (signal: NodeJS.Signals) => {
  interrupts++;
  // A second Ctrl-C while servers are being stopped ends at once.
  if (interrupts > 1) process.exit(130);
  controller.abort(new Error(`interrupted by ${signal}`));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
// The terminal went away (its window closed): stop servers and clean up the same way.
process.on('SIGHUP', onSignal);
// A closed pipe (`garuda-mcp status | head -1`) ends the command like Ctrl-C, so servers and
// temporary files are still cleaned up; nothing more is written.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (!controller.signal.aborted)
      controller.abort(new Error(`output closed (${error.code ?? 'error'})`));
  });
}

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  userHome: os.homedir(),
  platform: process.platform,
  signal: controller.signal,
});
process.exitCode = code;
// Anything the servers' clients left open (timers, sockets) must not keep the command alive.
setTimeout(() => process.exit(code), 2_000).unref();
