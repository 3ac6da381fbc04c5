// CLI start: the built garuda-mcp in fresh processes against a bare `node -e ''`, interleaved
// round by round: `--help`, `list`, and `status --start lazy` with 30 pinned servers (which
// starts none). Each run's wall time, and its CPU (user + system, read from this process's
// reaped-children counters). Whether `--help` loaded an MCP SDK is read for real: one more run
// records every module it resolves, and each bundled chunk is read as the packages its source
// map lists (apps/cli/test/support/loaded-packages.ts, which the CLI's own test uses too).
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import {
  loadedPackages,
  recordModulesEnv,
} from '../../../apps/cli/test/support/loaded-packages.js';
import { failedRow, summarize, type GoalId, type Row, type Section } from '../report.js';
import {
  BenchWorkspace,
  REPO_ROOT,
  countedFixture,
  launches,
  ms,
  reapedChildrenCpuMs,
  resetLog,
  serverNames,
} from '../support.js';

/** The built command. */
const BIN = fileURLToPath(new URL('../../../apps/cli/dist/bin.js', import.meta.url));
const SERVERS = 30;
const ROUNDS = 15;
/** A run that takes longer has failed (a bare start takes well under a second). */
const RUN_TIMEOUT_MS = 30_000;
/** The first, eager run starts and pins 30 servers. */
const PIN_TIMEOUT_MS = 180_000;
const HELP_TARGET = 3;
const LIST_TARGET = 4;
/** What `--help` must not load. */
const SDKS = ['@modelcontextprotocol/client', '@modelcontextprotocol/server'];
/** Also heavy, and not needed for help (reported, not part of the target). */
const OTHERS = ['@modelcontextprotocol/core', 'zod', 'undici'];

interface Side {
  readonly name: string;
  readonly args: readonly string[];
}

const BASE: Side = { name: "node -e ''", args: ['-e', ''] };
const HELP: Side = { name: 'garuda-mcp --help', args: [BIN, '--help'] };
const LIST: Side = { name: 'garuda-mcp list (30 servers)', args: [BIN, 'list'] };
const STATUS: Side = {
  name: 'garuda-mcp status --start lazy (30 pinned)',
  args: [BIN, 'status', '--start', 'lazy'],
};
const SIDES: readonly Side[] = [BASE, HELP, LIST, STATUS];

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** The environment of a run: the workspace's user, home and project, nothing of ours but PATH. */
function envOf(ws: BenchWorkspace, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: ws.userHome,
    LANG: 'C.UTF-8',
    GARUDA_HOME: ws.home,
    // The fixtures live in this checkout, which may be under /tmp (hidden from servers).
    GARUDA_SANDBOX_READ: REPO_ROOT,
    GARUDA_TOKEN_STORE: 'file',
    ...extra,
  };
}

/** Runs `node args…` in the project to its end; rejects on a non-zero exit or a timeout. */
function run(
  ws: BenchWorkspace,
  args: readonly string[],
  timeoutMs: number,
  extra: Record<string, string> = {},
): Promise<Sample> {
  const cpuBefore = reapedChildrenCpuMs();
  const started = performance.now();
  return new Promise<Sample>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ws.root,
      env: envOf(ws, extra),
      stdio: ['ignore', 'ignore', 'pipe'],
      signal: AbortSignal.timeout(timeoutMs),
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2_000);
    });
    child.once('error', (error) => reject(new Error(`${args.join(' ')}: ${error.message}`)));
    child.once('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`${args.slice(1).join(' ')} exited with ${code}: ${stderr.trim()}`));
        return;
      }
      resolve({ wallMs, cpuMs: reapedChildrenCpuMs() - cpuBefore });
    });
  });
}

/** 30 fixture servers in the user's file, pinned by one eager run; checks a lazy run starts none. */
async function pin(ws: BenchWorkspace): Promise<void> {
  const log = ws.file('launches.log');
  await ws.servers(Object.fromEntries(serverNames(SERVERS).map((n) => [n, countedFixture(log)])));
  await resetLog(log);
  await run(ws, [BIN, 'status', '--yes'], PIN_TIMEOUT_MS);
  await resetLog(log);
  await run(ws, STATUS.args, RUN_TIMEOUT_MS);
  const started = await launches(log);
  if (started !== 0) throw new Error(`status --start lazy started ${started} servers, expected 0`);
}

/** The packages `--help` loaded, of those it must not and those it need not. */
async function helpLoads(ws: BenchWorkspace): Promise<{ sdks: string[]; others: string[] }> {
  const log = path.join(ws.userHome, 'help-modules.log');
  await run(ws, HELP.args, RUN_TIMEOUT_MS, recordModulesEnv(log));
  const loaded = await loadedPackages(log);
  if (!loaded.has('picocolors')) throw new Error('the module record saw nothing of the CLI');
  await rm(log, { force: true });
  return {
    sdks: SDKS.filter((name) => loaded.has(name)),
    others: OTHERS.filter((name) => loaded.has(name)),
  };
}

/** Runs every side once per round, in turns; a side that fails is dropped with its reason. */
async function measure(
  ws: BenchWorkspace | undefined,
  base: BenchWorkspace,
): Promise<{ samples: Map<Side, Sample[]>; failures: Map<Side, unknown> }> {
  const samples = new Map<Side, Sample[]>(SIDES.map((side) => [side, []]));
  const failures = new Map<Side, unknown>();
  if (ws === undefined) failures.set(LIST, 'no workspace').set(STATUS, 'no workspace');
  for (let round = 0; round < ROUNDS + 1; round++) {
    // The order turns each round, so no side always runs after the same one.
    const order = SIDES.map((_, i) => SIDES[(i + round) % SIDES.length] as Side);
    for (const side of order) {
      if (failures.has(side)) continue;
      try {
        const sample = await run(
          side === LIST || side === STATUS ? (ws ?? base) : base,
          side.args,
          RUN_TIMEOUT_MS,
        );
        // The first round warms the file cache.
        if (round > 0) samples.get(side)?.push(sample);
      } catch (error) {
        failures.set(side, error);
      }
    }
  }
  return { samples, failures };
}

function rowsOf(
  samples: Map<Side, Sample[]>,
  failures: Map<Side, unknown>,
  sdk: { sdks: string[]; others: string[] } | Error,
): Row[] {
  const wall = (side: Side) => summarize((samples.get(side) ?? []).map((s) => s.wallMs));
  const cpu = (side: Side) => summarize((samples.get(side) ?? []).map((s) => s.cpuMs));
  const base = wall(BASE).median;
  const baseCpu = cpu(BASE).median;
  const listRatio = failures.has(LIST) ? Number.NaN : wall(LIST).median / base;
  const statusRatio = failures.has(STATUS) ? Number.NaN : wall(STATUS).median / base;
  // The figure is the slower of list and status (a failed one counts as the slower).
  const slower = !(statusRatio <= listRatio) ? STATUS : LIST;
  const rows: Row[] = [];
  for (const side of SIDES) {
    const goal: GoalId | undefined =
      side === HELP ? 'cli-help' : side === slower ? 'cli-list' : undefined;
    const target =
      side === HELP
        ? `≤ ${HELP_TARGET}× node -e '', no SDK loaded`
        : side === BASE
          ? undefined
          : `≤ ${LIST_TARGET}× node -e ''`;
    const extra = {
      unit: 'ms',
      ...(side === BASE ? {} : { baseline: BASE.name }),
      ...(target === undefined ? {} : { target }),
      ...(goal === undefined ? {} : { goal }),
    } as const;
    const failure =
      failures.get(side) ?? (failures.has(BASE) && side !== BASE ? failures.get(BASE) : undefined);
    if (failure !== undefined) {
      rows.push(failedRow(`${side.name}, wall`, failure, extra));
      continue;
    }
    const { median, p95 } = wall(side);
    const ratio = median / base;
    let met: boolean | undefined;
    let note = '';
    if (side === HELP) {
      const noSdk = !(sdk instanceof Error) && sdk.sdks.length === 0;
      met = ratio <= HELP_TARGET && noSdk;
      note =
        sdk instanceof Error
          ? `could not read what it loaded: ${sdk.message}`
          : `loaded ${[...sdk.sdks, ...sdk.others].join(', ') || 'no MCP SDK, zod or undici'}`;
    } else if (side !== BASE) {
      met = ratio <= LIST_TARGET;
    }
    rows.push({
      name: `${side.name}, wall`,
      median,
      p95,
      unit: 'ms',
      ...(side === BASE ? {} : { baseline: `${BASE.name}, wall`, ratio }),
      ...(target === undefined ? {} : { target, met }),
      ...(goal === undefined ? {} : { goal }),
      samples: samples.get(side)?.length ?? 0,
      ...(note === '' ? {} : { note }),
    });
  }
  for (const side of SIDES) {
    if (failures.has(side)) continue;
    const { median, p95 } = cpu(side);
    rows.push({
      name: `${side.name}, CPU per run`,
      median,
      p95,
      unit: 'ms',
      ...(side === BASE ? {} : { baseline: `${BASE.name}, CPU per run`, ratio: median / baseCpu }),
      samples: samples.get(side)?.length ?? 0,
    });
  }
  return rows;
}

/** The suite. */
export async function cliSuite(): Promise<Section[]> {
  const base = await BenchWorkspace.create();
  const pinned = await BenchWorkspace.create();
  let ws: BenchWorkspace | undefined;
  const notes: string[] = [];
  try {
    try {
      await pin(pinned);
      ws = pinned;
    } catch (error) {
      notes.push(`The 30 pinned servers could not be set up: ${String(error)}`);
    }
    let sdk: { sdks: string[]; others: string[] } | Error;
    try {
      sdk = await helpLoads(base);
    } catch (error) {
      sdk = error instanceof Error ? error : new Error(String(error));
    }
    const { samples, failures } = await measure(ws, base);
    const rows = rowsOf(samples, failures, sdk);
    notes.push(
      `Fresh processes, ${ROUNDS} rounds after one warm-up, the sides in turns (the order turns each round). ` +
        `node -e '' median ${ms(summarize((samples.get(BASE) ?? []).map((s) => s.wallMs)).median)}.`,
      'list and status run on a user file of 30 fixture servers, pinned by one eager `status --yes` first; a lazy status is checked to start none (the launches are counted).',
      'CPU per run: user + system time of the process and its children, from this process’s reaped-children counters (10 ms ticks).',
      'Whether --help loaded an SDK is read from one recorded run (every module it resolved; a bundled chunk counts as the packages its source map lists).',
    );
    return [{ id: 'cli', title: 'CLI start (issue 39)', rows, notes }];
  } finally {
    await pinned.cleanup();
    await base.cleanup();
  }
}
