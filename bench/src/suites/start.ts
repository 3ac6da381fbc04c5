// Start: time until the tools of 1, 10 and 30 local servers are ready, side by side for
// McpManager (sandbox on and off), a plain SDK loop (StdioClientTransport, connect + listTools,
// all servers at once) and @langchain/mcp-adapters' MultiServerMCPClient (getTools()), on the
// same fixture servers. Each server is started through counted-server.mjs, which logs its pid,
// so the launches per server are counted exactly, the SDK's short-lived version probe included.
import os from 'node:os';
import process from 'node:process';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import type { McpManager } from '@garuda/mcp-manager';
import type { SandboxInfo } from '@garuda/mcp-transport';
import { NORMAL_TOOL_NAMES } from '@garuda/test-utils';
import { failedRow, summarize, type Row, type Section } from '../report.js';
import {
  BenchWorkspace,
  NO_SANDBOX,
  SERVER_ENV,
  connectSdkClients,
  countedFixture,
  descendants,
  newDescendants,
  launches,
  machineSandbox,
  noChildrenLeft,
  processesCpuMs,
  reapedChildrenCpuMs,
  resetLog,
  serverNames,
  type ServerEntry,
} from '../support.js';

const VERSION_NEGOTIATION = { mode: 'auto' } as const;
/** The most servers started at once. */
const LARGEST = 30;
/** Server counts, with the measured rounds for each. */
const SIZES: readonly { servers: number; rounds: number }[] = [
  { servers: 1, rounds: 8 },
  { servers: 10, rounds: 3 },
  { servers: LARGEST, rounds: 3 },
];
const SCALE_TARGET = 2;
/** Target: an eager start of 30 servers against the CPU floor (servers' boot CPU ÷ cores). */
const FLOOR_TARGET = 1.05;
/** Target: time until `tools()` is ready for 30 pinned servers under `startMode: 'lazy'`. */
const LAZY_TARGET_MS = 100;
/** Lazy starts measured per manager. */
const LAZY_ROUNDS = 10;

interface LazyRun {
  readonly readyMs: number;
  readonly firstCallMs: number;
  readonly launches: number;
}

/**
 * A lazy start of `servers` pinned servers (the same entries as the eager runs of that size,
 * so their cached lists match): the time until `tools()` holds every tool, every server
 * `ready` and none launched; then the first call, which starts one server.
 */
async function measureLazy(
  ws: BenchWorkspace,
  sandbox: SandboxInfo,
  servers: number,
  log: string,
): Promise<LazyRun> {
  const entries = Object.fromEntries(serverNames(servers).map((n) => [n, countedFixture(log)]));
  await ws.servers(entries);
  await resetLog(log);
  const before = new Set(descendants());
  const t = performance.now();
  const manager = ws.manager(sandbox, { startMode: 'lazy' });
  let run: LazyRun;
  try {
    await manager.start();
    const count = manager.tools().length;
    const readyMs = performance.now() - t;
    expectTools(count, servers, 'McpManager, lazy');
    const states = new Set(manager.status().map((row) => row.state));
    if (states.size !== 1 || !states.has('ready')) {
      throw new Error(`McpManager, lazy: states ${[...states].join(', ')}, expected only ready`);
    }
    const launched = await launches(log);
    const first = performance.now();
    await manager.call('mcp__s00__echo', { text: 'hello' });
    run = { readyMs, firstCallMs: performance.now() - first, launches: launched };
  } finally {
    await manager.close();
  }
  if (!(await noChildrenLeft(before))) {
    throw new Error('McpManager, lazy: server processes were still running after close()');
  }
  return run;
}

/** One client's way to bring `entries` up; resolves once every tool is listed. */
interface Starter {
  readonly name: string;
  /** Ours: the target applies to it. */
  readonly ours: boolean;
  start(entries: Record<string, ServerEntry>, ws: BenchWorkspace): Promise<() => Promise<void>>;
}

interface Run {
  readonly readyMs: number;
  readonly launches: number;
  readonly live: number;
  readonly clientCpuMs: number;
  readonly serverCpuMs: number;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function expectTools(count: number, servers: number, who: string): void {
  const expected = servers * NORMAL_TOOL_NAMES.length;
  if (count !== expected) throw new Error(`${who}: ${count} tools ready, expected ${expected}`);
}

function managerStarter(label: string, sandbox: SandboxInfo): Starter {
  return {
    name: `McpManager, ${label}`,
    ours: true,
    async start(entries, ws) {
      await ws.servers(entries);
      const manager: McpManager = ws.manager(sandbox);
      try {
        await manager.start();
        expectTools(manager.tools().length, Object.keys(entries).length, this.name);
      } catch (error) {
        await manager.close();
        throw error;
      }
      return () => manager.close();
    },
  };
}

const sdkLoop: Starter = {
  name: 'SDK loop (StdioClientTransport)',
  ours: false,
  async start(entries) {
    const { toolCounts, close } = await connectSdkClients(entries);
    try {
      expectTools(
        toolCounts.reduce((a, b) => a + b, 0),
        Object.keys(entries).length,
        this.name,
      );
    } catch (error) {
      await close();
      throw error;
    }
    return close;
  },
};

const langchain: Starter = {
  name: 'LangChain MultiServerMCPClient',
  ours: false,
  async start(entries) {
    const client = new MultiServerMCPClient({
      mcpServers: Object.fromEntries(
        Object.entries(entries).map(([name, entry]) => [
          name,
          {
            transport: 'stdio' as const,
            command: entry.command,
            args: [...entry.args],
            env: SERVER_ENV,
            stderr: 'ignore' as const,
          },
        ]),
      ),
      onConnectionError: 'throw',
    });
    try {
      expectTools((await client.getTools()).length, Object.keys(entries).length, this.name);
    } catch (error) {
      await client.close();
      throw error;
    }
    return () => client.close();
  },
};

async function measure(
  starter: Starter,
  servers: number,
  ws: BenchWorkspace,
  log: string,
): Promise<Run> {
  const entries = Object.fromEntries(serverNames(servers).map((n) => [n, countedFixture(log)]));
  await resetLog(log);
  const before = new Set(descendants());
  const reaped = reapedChildrenCpuMs();
  const clientCpu = cpuMs();
  const t = performance.now();
  const close = await starter.start(entries, ws);
  const readyMs = performance.now() - t;
  const clientCpuMs = cpuMs() - clientCpu;
  // The servers' CPU until ready: the processes still running (bubblewrap included), plus
  // those that already ended and were reaped (the SDK's version probe).
  const live = newDescendants(before);
  const serverCpuMs = processesCpuMs(live) + reapedChildrenCpuMs() - reaped;
  await close();
  if (!(await noChildrenLeft(before))) {
    throw new Error(`${starter.name}: server processes were still running after close()`);
  }
  return { readyMs, launches: await launches(log), live: live.length, clientCpuMs, serverCpuMs };
}

function median(values: readonly number[]): number {
  return summarize(values).median;
}

/**
 * Runs the start comparison.
 *
 * @returns Three sections: time to ready per server count, 30 servers against one, and the
 *   processes launched per server.
 */
export async function startSuite(): Promise<Section[]> {
  const sandbox = await machineSandbox();
  const starters: Starter[] = [
    sdkLoop,
    langchain,
    managerStarter('sandbox off', NO_SANDBOX),
    ...(sandbox.kind === 'none' ? [] : [managerStarter(`sandbox on (${sandbox.kind})`, sandbox)]),
  ];
  // One workspace per client: each manager keeps its own trust store (pins written once, in the
  // warm-up round, as on a user's machine after the first start).
  const workspaces = new Map<Starter, BenchWorkspace>();
  const runs = new Map<string, Run[]>();
  const lazyRuns = new Map<Starter, LazyRun[]>();
  const key = (starter: Starter, servers: number) => `${servers}\u0000${starter.name}`;
  // A run that fails (a server that does not connect on a loaded machine, a process left over)
  // is recorded under its row's key and the suite goes on: the row reports the failures.
  const failures = new Map<string, string[]>();
  const attempt = async <T>(at: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      const list = failures.get(at) ?? [];
      list.push(error instanceof Error ? error.message : String(error));
      failures.set(at, list);
      return undefined;
    }
  };
  const lazyKey = (starter: Starter) => `lazy\u0000${starter.name}`;
  try {
    for (const starter of starters) workspaces.set(starter, await BenchWorkspace.create());
    const run = (starter: Starter, servers: number) => {
      const ws = workspaces.get(starter) as BenchWorkspace;
      return measure(starter, servers, ws, ws.file(`launches-${servers}.log`));
    };
    // Warm-up: every client once with one server (its code loaded and compiled), and each
    // manager once with the most servers, so its trust store holds every server's pins, as on a
    // user's machine after the first start.
    for (const starter of starters)
      await attempt(`warm-up\u0000${starter.name}`, () => run(starter, 1));
    for (const starter of starters.filter((s) => s.ours)) {
      await attempt(`warm-up\u0000${starter.name}`, () => run(starter, LARGEST));
    }
    for (const { servers, rounds } of SIZES) {
      for (let round = 0; round < rounds; round++) {
        const order = starters.map((_, i) => starters[(i + round) % starters.length] as Starter);
        for (const starter of order) {
          const list = runs.get(key(starter, servers)) ?? [];
          const result = await attempt(key(starter, servers), () => run(starter, servers));
          if (result !== undefined) list.push(result);
          runs.set(key(starter, servers), list);
        }
      }
    }
    // Lazy starts of the 30 servers each manager pinned (and cached) above, in turns.
    for (let round = 0; round < LAZY_ROUNDS; round++) {
      for (const starter of starters.filter((s) => s.ours)) {
        const ws = workspaces.get(starter) as BenchWorkspace;
        const lazySandbox = starter.name.includes('sandbox off') ? NO_SANDBOX : sandbox;
        const list = lazyRuns.get(starter) ?? [];
        const result = await attempt(lazyKey(starter), () =>
          measureLazy(ws, lazySandbox, LARGEST, ws.file(`launches-${LARGEST}.log`)),
        );
        if (result !== undefined) list.push(result);
        lazyRuns.set(starter, list);
      }
    }
  } finally {
    await Promise.allSettled([...workspaces.values()].map((ws) => ws.cleanup()));
  }

  const of = (starter: Starter, servers: number) => runs.get(key(starter, servers)) ?? [];
  const label = (starter: Starter, servers: number) =>
    `${servers} server${servers === 1 ? '' : 's'} · ${starter.name}`;

  const readyRows: Row[] = [];
  for (const { servers } of SIZES) {
    const base = median(of(sdkLoop, servers).map((r) => r.readyMs));
    for (const starter of starters) {
      const list = of(starter, servers);
      const { median: m, p95 } = summarize(list.map((r) => r.readyMs));
      readyRows.push({
        name: label(starter, servers),
        median: m,
        p95,
        unit: 'ms',
        samples: list.length,
        note: `client CPU ${median(list.map((r) => r.clientCpuMs)).toFixed(0)} ms, servers' CPU ${median(list.map((r) => r.serverCpuMs)).toFixed(0)} ms`,
        ...(starter === sdkLoop
          ? {}
          : { baseline: label(sdkLoop, servers), ratio: m / base, higherIsBetter: false }),
      });
    }
  }

  const largest = LARGEST;
  const scaleRows: Row[] = starters.map((starter) => {
    const one = median(of(starter, 1).map((r) => r.readyMs));
    const { median: m, p95 } = summarize(of(starter, largest).map((r) => r.readyMs));
    const ratio = m / one;
    return {
      name: `${starter.name}: ${largest} servers`,
      median: m,
      p95,
      unit: 'ms',
      samples: of(starter, largest).length,
      baseline: label(starter, 1),
      ratio,
      higherIsBetter: false,
    };
  });

  const cores = Math.max(1, os.availableParallelism());
  const floorRows: Row[] = starters
    .filter((starter) => starter.ours)
    .map((starter) => {
      const big = of(starter, largest);
      const floor = median(big.map((r) => r.serverCpuMs)) / cores;
      const { median: m, p95 } = summarize(big.map((r) => r.readyMs));
      return {
        name: `${starter.name}: ${largest} servers against the CPU floor`,
        median: m,
        p95,
        unit: 'ms',
        samples: big.length,
        ratio: m / floor,
        higherIsBetter: false,
        baseline: `servers' boot CPU ÷ ${cores} cores = ${floor.toFixed(0)} ms`,
        target: `≤ ${FLOOR_TARGET}× the floor`,
        met: m / floor <= FLOOR_TARGET,
        note: `this client's CPU ${median(big.map((r) => r.clientCpuMs)).toFixed(0)} ms`,
      };
    });

  const lazyRows: Row[] = [];
  for (const starter of starters.filter((s) => s.ours)) {
    const list = lazyRuns.get(starter) ?? [];
    const eager = median(of(starter, largest).map((r) => r.readyMs));
    const ready = summarize(list.map((r) => r.readyMs));
    const lazyName = `${starter.name.replace('McpManager', 'McpManager lazy')}: ${largest} pinned servers, tools() ready`;
    lazyRows.push({
      name: lazyName,
      ...ready,
      unit: 'ms',
      samples: list.length,
      baseline: label(starter, largest),
      ratio: ready.median / eager,
      higherIsBetter: false,
      target: `≤ ${LAZY_TARGET_MS} ms`,
      met: ready.median <= LAZY_TARGET_MS,
      note: `${Math.max(...list.map((r) => r.launches))} servers launched until ready`,
    });
    const first = summarize(list.map((r) => r.firstCallMs));
    lazyRows.push({
      name: `${starter.name.replace('McpManager', 'McpManager lazy')}: first call (starts its server)`,
      ...first,
      unit: 'ms',
      samples: list.length,
      baseline: label(starter, 1),
      ratio: first.median / median(of(starter, 1).map((r) => r.readyMs)),
      higherIsBetter: false,
    });
  }

  const processRows: Row[] = [];
  for (const starter of starters) {
    const perServer = SIZES.flatMap(({ servers }) =>
      of(starter, servers).map((r) => r.launches / servers),
    );
    const live = SIZES.flatMap(({ servers }) => of(starter, servers).map((r) => r.live / servers));
    const { median: m, p95 } = summarize(perServer);
    const worst = Math.max(...perServer);
    processRows.push({
      name: `${starter.name}: server launches per server`,
      median: m,
      p95,
      unit: 'launches',
      samples: perServer.length,
      note: `${median(live).toFixed(1)} live processes per server once ready`,
      ...(starter.ours ? { target: '1 (no probe process)', met: worst === 1 } : {}),
    });
  }

  const scaleNotes = [
    `Time from creating the client until every tool of every server is listed (7 tools per server), ${SIZES.map((s) => `${s.servers} server${s.servers === 1 ? '' : 's'}: ${s.rounds} rounds`).join(', ')}, the clients taking turns, after a warm-up (each client once with one server, each manager once with 30 so that its trust store holds their pins). Shutdown is not included (each run closes its client and waits until no child process is left before the next starts).`,
    `The SDK loop and McpManager use versionNegotiation ${JSON.stringify(VERSION_NEGOTIATION)}; MultiServerMCPClient brings its own SDK (@modelcontextprotocol/sdk 1.x) and its legacy 2025 handshake, and connects its servers one after the other. The baselines run the servers unsandboxed with stderr ignored; McpManager reads stderr (kept for error messages).`,
    `"client CPU" is this process's CPU time until ready; "servers' CPU" is the CPU time the server processes of one run used until ready (bubblewrap included): /proc/<pid>/stat of those still running plus this process's reaped-children counters for those that already ended (the SDK's probe).`,
  ];
  // The floor section below holds the target now; the old "≤ 2× one server" is out of reach for
  // any client with Node servers on 2 cores, and this note says why.
  for (const row of scaleRows.filter(
    (r) =>
      starters.some((s) => s.ours && r.name.startsWith(s.name)) && (r.ratio ?? 0) > SCALE_TARGET,
  )) {
    const starter = starters.find((s) => row.name.startsWith(s.name)) as Starter;
    const big = of(starter, largest);
    const one = of(starter, 1);
    const bigCpu = median(big.map((r) => r.serverCpuMs + r.clientCpuMs));
    const oneCpu = median(one.map((r) => r.serverCpuMs + r.clientCpuMs));
    const floor = bigCpu / cores;
    const measured = median(big.map((r) => r.readyMs));
    const oneReady = median(one.map((r) => r.readyMs));
    scaleNotes.push(
      `${starter.name}: ${(row.ratio ?? 0).toFixed(2)}× its one-server time (the first wave's target was ≤ ${SCALE_TARGET}×; see the CPU floor section for this issue's). Starting ${largest} servers costs ${bigCpu.toFixed(0)} ms of CPU (the servers ${median(big.map((r) => r.serverCpuMs)).toFixed(0)} ms, this client ${median(big.map((r) => r.clientCpuMs)).toFixed(0)} ms) against ${oneCpu.toFixed(0)} ms for one server. On ${cores} cores that alone takes at least ${floor.toFixed(0)} ms, ${(floor / oneReady).toFixed(1)}× the one-server time; the measured ${measured.toFixed(0)} ms is ${((measured / floor - 1) * 100).toFixed(0)} % above that floor. So the time goes into the server processes booting (Node start-up and module loading of each fixture server, about ${(median(big.map((r) => r.serverCpuMs)) / largest).toFixed(0)} ms of CPU each), not into the client, and no client can meet 2× with ${largest} Node servers on this machine: the SDK loop scales ${(scaleRows.find((r) => r.name.startsWith(sdkLoop.name))?.ratio ?? Number.NaN).toFixed(2)}× on the same servers.`,
    );
  }

  /**
   * A row whose runs all failed becomes a failed row; one with some failed runs says how many.
   * `at` is the key the failures were recorded under.
   */
  const checked = (row: Row, at: string): Row => {
    const failed = failures.get(at) ?? [];
    if (failed.length === 0) return row;
    if (!Number.isFinite(row.median)) {
      return failedRow(row.name, `${failed.length} runs failed: ${failed[0] ?? ''}`, {
        unit: row.unit,
        ...(row.target === undefined ? {} : { target: row.target }),
      });
    }
    const note = `${failed.length} runs failed and are left out: ${failed[0] ?? ''}`;
    return { ...row, note: row.note === undefined ? note : `${row.note}; ${note}` };
  };
  const byName = (list: Row[], at: (row: Row) => string) =>
    list.map((row) => checked(row, at(row)));
  // Scale and floor rows are named `<starter>: …`.
  const starterOf = (row: Row): Starter =>
    starters.find((s) => row.name.startsWith(`${s.name}:`)) ?? sdkLoop;
  readyRows.splice(
    0,
    readyRows.length,
    ...byName(readyRows, (row) => {
      const [count = '1'] = row.name.split(' ');
      const starter = starters.find((s) => row.name.endsWith(` · ${s.name}`)) ?? sdkLoop;
      return key(starter, Number(count));
    }),
  );
  const failedWarmUps = starters.flatMap((starter) =>
    (failures.get(`warm-up\u0000${starter.name}`) ?? []).map((m) => `${starter.name}: ${m}`),
  );
  const checkedScale = byName(scaleRows, (row) => key(starterOf(row), largest));
  const checkedFloor = byName(floorRows, (row) => key(starterOf(row), largest));
  const checkedLazy = lazyRows.map((row) => {
    const starter = starters.find((s) =>
      row.name.startsWith(s.name.replace('McpManager', 'McpManager lazy')),
    );
    return starter === undefined ? row : checked(row, lazyKey(starter));
  });

  return [
    {
      id: 'start-ready',
      title: 'Start: time until tools are ready',
      rows: readyRows,
      notes: [
        ...scaleNotes.slice(0, 3),
        ...(failedWarmUps.length > 0
          ? [`Warm-up runs that failed: ${failedWarmUps.join('; ')}.`]
          : []),
      ],
    },
    {
      id: 'start-scale',
      title: `Start: ${largest} servers against one`,
      rows: checkedScale,
      notes: [
        `Each client's median time for ${largest} servers divided by its own median for one server.`,
        ...scaleNotes.slice(3),
      ],
    },
    {
      id: 'start-floor',
      title: `Start: ${largest} servers (eager) against the CPU floor`,
      rows: checkedFloor,
      notes: [
        `The floor is the CPU the ${largest} server processes of one run used until ready (bubblewrap included), divided by the cores: no client can bring them up faster on this machine. The ratio is the measured time over that floor; what is above it is this client's own CPU (in the note) and scheduling.`,
      ],
    },
    {
      id: 'start-lazy',
      title: `Start: ${largest} pinned servers, startMode lazy`,
      rows: checkedLazy,
      notes: [
        `After the eager runs above, each manager's home holds the pins and the tool-list cache of the ${largest} servers. A lazy start reads the cache once, checks each cached list against the trust store's pin of that very definition and offers the cleaned tools at once, with no process launched (counted by the server wrapper): ${LAZY_ROUNDS} rounds, the managers taking turns. The ratio of the first row is to the eager start of the same servers. "first call" is the time of the first call after a lazy start (it starts that one server, runs the pin check, then the call); its ratio is to an eager start of one server.`,
      ],
    },
    {
      id: 'start-processes',
      title: 'Start: processes launched per server',
      rows: processRows,
      notes: [
        'Launches: server processes started per configured server, counted by the server wrapper (counted-server.mjs appends its pid to a log file in the project folder before it runs the fixture), over every measured run of every size. The SDK\'s StdioClientTransport under versionNegotiation "auto" launches a second, short-lived copy of the server for its version probe. Live processes: descendants of this process once the tools are ready (from /proc), bubblewrap included when sandboxed.',
      ],
    },
  ];
}
