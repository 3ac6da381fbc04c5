#!/usr/bin/env node
// Measures what `garuda-mcp serve --http` keeps of MCP: every server scenario of the conformance
// harness (the exact version of test/interop/package.json) run twice against the same server,
// once directly and once through the gateway behind the renaming proxy of
// fixtures/conformance-gateway.mjs, then a table scenario → direct / gateway with the messages
// of the checks that failed.
//
//   node test/interop/scripts/conformance-gateway.mjs <server.ts|server.mjs> [--json]
//   node test/interop/scripts/conformance-gateway.mjs --url http://127.0.0.1:<port>/mcp [--json]
//   … --approvals <mode>     serve's approval mode (default: its own, elicit; calls run: --yes)
//   … --gateway-log <file>   also writes what the gateway printed (its notices) to <file>
//
// A file is started as `node [--import tsx] <file>` with PORT=0 from its own folder (install its
// dependencies there: the example server of the conformance repository needs
// @modelcontextprotocol/sdk, express, cors, tsx and zod), with fixtures/listen-on-loopback.mjs
// preloaded so that it listens on 127.0.0.1 and says its port. With --url the server is already
// running. Build the CLI first (apps/cli/dist/bin.js).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE22 } from '@garuda/node22';
import {
  SERVER_SCENARIOS,
  runServerScenarios,
  startGateway,
  startNamingProxy,
} from '../fixtures/conformance-gateway.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.resolve(HERE, '../../../apps/cli/dist/bin.js');
const HARNESS = fileURLToPath(
  new URL('dist/index.js', import.meta.resolve('@modelcontextprotocol/conformance/package.json')),
);
const LOOPBACK_ONLY = path.resolve(HERE, '../fixtures/listen-on-loopback.mjs');
/** The server's name behind the gateway (its tools are `everything__<tool>`). */
const SERVER = 'everything';

const args = process.argv.slice(2);
const json = args.includes('--json');
const logAt = args.indexOf('--gateway-log');
const gatewayLog = logAt >= 0 ? args[logAt + 1] : undefined;
const approvalsAt = args.indexOf('--approvals');
const approvals = approvalsAt >= 0 ? args[approvalsAt + 1] : undefined;
const urlAt = args.indexOf('--url');
const given = urlAt >= 0 ? args[urlAt + 1] : undefined;
/** The values of the options above, which are not the file. */
const values = [urlAt, logAt, approvalsAt].filter((at) => at >= 0).map((at) => at + 1);
const file = args.find((arg, index) => !arg.startsWith('--') && !values.includes(index));
if ((given === undefined) === (file === undefined)) {
  process.stderr.write('usage: conformance-gateway.mjs <server file> | --url <mcp url> [--json]\n');
  process.exit(2);
}
if (!existsSync(BIN)) {
  process.stderr.write(`${BIN} is missing: build the CLI first.\n`);
  process.exit(2);
}

/** Starts the server file on a free loopback port; resolves with its URL and a stop. */
function startServerFile(serverFile) {
  const absolute = path.resolve(serverFile);
  const loader = /\.(?:c|m)?ts$/.test(absolute) ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, '--import', LOOPBACK_ONLY, absolute], {
    cwd: path.dirname(absolute),
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${serverFile} did not listen within 60 s:\n${stderr}`));
    }, 60_000);
    const ended = (code) => reject(new Error(`${serverFile} ended (${code}):\n${stderr}`));
    child.once('exit', ended);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      const port = /^interop: listening on 127\.0\.0\.1:(\d+)$/m.exec(stderr)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      child.off('exit', ended);
      resolve({ url: `http://127.0.0.1:${port}/mcp`, stop });
    });
  });
}

const work = await mkdtemp(path.join(tmpdir(), 'garuda-conformance-gateway-'));
const server =
  file === undefined ? { url: given, stop: async () => {} } : await startServerFile(file);
let gateway;
let proxy;
try {
  const direct = await runServerScenarios({
    node22: NODE22,
    harness: HARNESS,
    url: server.url,
    dir: path.join(work, 'direct'),
  });
  gateway = await startGateway({
    bin: BIN,
    dir: path.join(work, 'gateway-home'),
    server: SERVER,
    url: server.url,
    serveArgs: approvals === undefined ? [] : ['--approvals', approvals],
  });
  proxy = await startNamingProxy({ target: gateway.url, token: gateway.token, server: SERVER });
  const through = await runServerScenarios({
    node22: NODE22,
    harness: HARNESS,
    url: proxy.url,
    dir: path.join(work, 'gateway'),
  });
  report(direct.scenarios, through.scenarios);
} finally {
  if (gatewayLog !== undefined && gateway !== undefined)
    await writeFile(gatewayLog, gateway.stderr());
  await proxy?.close();
  await gateway?.stop();
  await server.stop();
  await rm(work, { recursive: true, force: true });
}

function report(direct, through) {
  const rows = SERVER_SCENARIOS.map((scenario) => ({
    scenario,
    direct: direct.get(scenario),
    gateway: through.get(scenario),
  }));
  if (json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  const mark = (verdict) => (verdict.passed ? 'pass' : 'FAIL');
  const why = (verdict) =>
    [...verdict.failures, ...(verdict.passed ? [] : verdict.warnings)]
      .join('; ')
      .replaceAll('|', '\\|')
      .replaceAll('\n', ' ');
  const lines = [
    '| scenario | direct | gateway | why (gateway, else direct) |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      ({ scenario, direct: d, gateway: g }) =>
        `| ${scenario} | ${mark(d)} | ${mark(g)} | ${why(g) || why(d)} |`,
    ),
  ];
  const count = (side) => rows.filter((row) => row[side].passed).length;
  lines.push(
    '',
    `direct: ${count('direct')}/${rows.length} pass; gateway: ${count('gateway')}/${rows.length} pass`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}
