// Pinned fetch against plain undici fetch on the same loopback server: requests per second over
// keep-alive (one at a time, and several in flight), CPU per request, and the cost of the first
// request of a fresh client (lookup, address checks, connect).
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import process from 'node:process';
import { createPinnedFetch } from '@garuda/pinned-fetch';
import { Agent, fetch as undiciFetch, type Response } from 'undici';
import { busyMs, diffLine, profile, profileDiff, type ProfileSummary } from '../profile.js';
import { summarize, type Row, type Section } from '../report.js';

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ok: true } });
/** Requests per round, one at a time. Short rounds, many of them: load bursts hit both sides. */
const SEQUENTIAL = 50;
/** Requests in flight at once, and requests per round in that mode. */
const IN_FLIGHT = 8;
const CONCURRENT = 200;
const MAX_ROUNDS = 80;
const MIN_ROUNDS = 20;
/** Stop adding rounds to one measurement after this long, so a loaded machine still finishes. */
const ROUNDS_BUDGET_MS = 15_000;
const WARMUP_ROUNDS = 2;
/** Fresh clients per kind of first request. */
const FIRST_REQUESTS = 40;
/** Sequential requests per profile; each client is profiled twice, in turns. */
const PROFILED = 1_500;

type Get = (url: string) => Promise<Response>;

const PINNED = 'pinned fetch';
const PLAIN = 'undici fetch';
const AGENT_ONLY = 'undici fetch on the pinned agent';
const PLAIN_MANUAL = "undici fetch, redirect: 'manual'";

interface Client {
  readonly name: string;
  readonly get: Get;
}

async function drain(response: Response): Promise<void> {
  const text = await response.text();
  if (response.status !== 200 || text !== BODY) {
    throw new Error(`unexpected answer from the bench server: ${response.status} ${text}`);
  }
}

async function sequential(get: Get, url: string, count: number): Promise<void> {
  for (let k = 0; k < count; k++) await drain(await get(url));
}

async function inFlight(get: Get, url: string, count: number): Promise<void> {
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, () => sequential(get, url, count / IN_FLIGHT)),
  );
}

interface Round {
  readonly ms: number;
  readonly cpuMs: number;
}

/**
 * Rounds of `work` for each client, the clients taking turns (and turns at going first), so
 * both see the same machine load.
 */
async function rounds(
  clients: readonly Client[],
  work: (get: Get) => Promise<void>,
): Promise<Map<string, Round[]>> {
  const results = new Map<string, Round[]>(clients.map((c) => [c.name, []]));
  for (let r = 0; r < WARMUP_ROUNDS; r++) for (const c of clients) await work(c.get);
  const started = performance.now();
  for (let r = 0; r < MAX_ROUNDS; r++) {
    if (r >= MIN_ROUNDS && performance.now() - started > ROUNDS_BUDGET_MS) break;
    for (let k = 0; k < clients.length; k++) {
      const c = clients[(r + k) % clients.length] as Client;
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      await work(c.get);
      const ms = performance.now() - t0;
      const used = process.cpuUsage(cpu);
      results.get(c.name)?.push({ ms, cpuMs: (used.user + used.system) / 1000 });
    }
  }
  return results;
}

/** The median over rounds of `a`'s rate divided by `b`'s in the same round. */
function pairedRatio(a: readonly Round[], b: readonly Round[]): number {
  const ratios: number[] = [];
  for (let r = 0; r < Math.min(a.length, b.length); r++) {
    ratios.push((b[r] as Round).ms / (a[r] as Round).ms);
  }
  return summarize(ratios).median;
}

function rateRows(label: string, results: Map<string, Round[]>, perRound: number): Row[] {
  const rows: Row[] = [];
  const plain = results.get(PLAIN) ?? [];
  const plainRate = (perRound * 1000) / summarize(plain.map((r) => r.ms)).median;
  const plainCpu = summarize(plain.map((r) => (r.cpuMs * 1000) / perRound)).median;
  for (const [name, rounds] of results) {
    const s = summarize(rounds.map((r) => r.ms));
    // Requests per second at the median round time, and at the 95th-percentile (slow) one.
    const median = (perRound * 1000) / s.median;
    const compared = name !== PLAIN;
    const ratio = median / plainRate;
    rows.push({
      name: `${name}, ${label}`,
      median,
      p95: (perRound * 1000) / s.p95,
      unit: 'req/s',
      higherIsBetter: true,
      samples: rounds.length,
      ...(compared
        ? {
            baseline: PLAIN,
            ratio,
            note: `paired by round: ${pairedRatio(rounds, plain).toFixed(2)}×`,
          }
        : {}),
      ...(name === PINNED ? { target: '≥ 0.90× undici fetch', met: ratio >= 0.9 } : {}),
    });
  }
  for (const [name, rounds] of results) {
    const cpu = summarize(rounds.map((r) => (r.cpuMs * 1000) / perRound));
    rows.push({
      name: `CPU per request, ${name}, ${label}`,
      median: cpu.median,
      p95: cpu.p95,
      unit: 'µs',
      higherIsBetter: false,
      samples: rounds.length,
      ...(name === PLAIN ? {} : { baseline: PLAIN, ratio: cpu.median / plainCpu }),
    });
  }
  return rows;
}

/** Two profiles of the same work as one (self times added). */
function merge(a: ProfileSummary, b: ProfileSummary): ProfileSummary {
  const add = (x: ProfileSummary['functions'], y: ProfileSummary['functions']) => {
    const sums = new Map<string, number>();
    for (const e of [...x, ...y]) sums.set(e.where, (sums.get(e.where) ?? 0) + e.selfMs);
    const total = a.totalMs + b.totalMs;
    return [...sums]
      .sort((p, q) => q[1] - p[1])
      .map(([where, selfMs]) => ({ where, selfMs, share: total > 0 ? selfMs / total : 0 }));
  };
  return {
    totalMs: a.totalMs + b.totalMs,
    functions: add(a.functions, b.functions),
    packages: add(a.packages, b.packages),
  };
}

interface FirstClient {
  readonly name: string;
  readonly open: () => { get: Get; close: () => Promise<void> };
}

/** The first request of `FIRST_REQUESTS` fresh clients of each kind, taking turns; in ms. */
async function firstRequests(
  clients: readonly FirstClient[],
  url: string,
): Promise<Map<string, number[]>> {
  const results = new Map<string, number[]>(clients.map((c) => [c.name, []]));
  const timeOne = async (c: FirstClient): Promise<number> => {
    const client = c.open();
    try {
      const t0 = performance.now();
      await drain(await client.get(url));
      return performance.now() - t0;
    } finally {
      await client.close();
    }
  };
  for (const c of clients) for (let k = 0; k < 3; k++) await timeOne(c);
  for (let k = 0; k < FIRST_REQUESTS; k++) {
    for (let j = 0; j < clients.length; j++) {
      const c = clients[(k + j) % clients.length] as FirstClient;
      results.get(c.name)?.push(await timeOne(c));
    }
  }
  return results;
}

/**
 * The pinned fetch comparison: `createPinnedFetch({ allowLoopback: true })` against undici's
 * `fetch` with a keep-alive `Agent`, both on the same `node:http` server on 127.0.0.1 answering a
 * small JSON body. Every agent and the server are closed before it returns.
 *
 * @returns One section. Target: pinned ≥ 0.9× undici's requests per second in steady state.
 */
export async function pinnedFetchSuite(): Promise<Section[]> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(BODY),
    });
    res.end(BODY);
  });
  // Longer than the whole suite, so the server never drops a pooled connection.
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const byAddress = `http://127.0.0.1:${port}/tools/call`;
  const byName = `http://localhost:${port}/tools/call`;

  const pinned = createPinnedFetch({ allowLoopback: true });
  // undici's defaults, as the pinned agent uses them (keep-alive on, the server's hint obeyed).
  const agent = new Agent();
  const clients: Client[] = [
    { name: PLAIN, get: (url) => undiciFetch(url, { dispatcher: agent }) },
    { name: PINNED, get: (url) => pinned(url) },
    // The pinned agent without the wrapper: tells the agent's cost from the wrapper's.
    { name: AGENT_ONLY, get: (url) => undiciFetch(url, { dispatcher: pinned.dispatcher }) },
    // The pinned fetch always asks undici for `redirect: 'manual'`; this tells that option's
    // cost from ours.
    {
      name: PLAIN_MANUAL,
      get: (url) => undiciFetch(url, { dispatcher: agent, redirect: 'manual' }),
    },
  ];

  const fresh: FirstClient[] = [
    {
      name: PINNED,
      open: () => {
        const f = createPinnedFetch({ allowLoopback: true });
        return { get: (url) => f(url), close: () => f.close() };
      },
    },
    {
      name: PLAIN,
      open: () => {
        const a = new Agent();
        return { get: (url) => undiciFetch(url, { dispatcher: a }), close: () => a.close() };
      },
    },
  ];

  try {
    const seq = await rounds(clients, (get) => sequential(get, byAddress, SEQUENTIAL));
    const par = await rounds(clients, (get) => inFlight(get, byAddress, CONCURRENT));
    const firstByAddress = await firstRequests(fresh, byAddress);
    const firstByName = await firstRequests(fresh, byName);

    // Where a pinned request spends CPU that a plain one does not: each client profiled twice,
    // in turns, after a full GC, so heap growth and load are shared out evenly.
    const gc = (globalThis as { gc?: () => void }).gc;
    const profiles = new Map<string, ProfileSummary[]>([
      [PINNED, []],
      [PLAIN, []],
    ]);
    for (const name of [PLAIN, PINNED, PINNED, PLAIN]) {
      const client = clients.find((c) => c.name === name) as Client;
      gc?.();
      profiles.get(name)?.push(await profile(() => sequential(client.get, byAddress, PROFILED)));
    }
    const [a1, a2] = profiles.get(PINNED) as [ProfileSummary, ProfileSummary];
    const [b1, b2] = profiles.get(PLAIN) as [ProfileSummary, ProfileSummary];
    const pinnedProfile = merge(a1, a2);
    const plainProfile = merge(b1, b2);
    const perRequest = (p: ProfileSummary) => ((busyMs(p) * 1000) / (2 * PROFILED)).toFixed(0);

    const firstRows = (label: string, results: Map<string, number[]>): Row[] => {
      const b = summarize(results.get(PLAIN) ?? []);
      const a = summarize(results.get(PINNED) ?? []);
      return [
        {
          name: `${PLAIN}, ${label}`,
          median: b.median,
          p95: b.p95,
          unit: 'ms',
          higherIsBetter: false,
          samples: results.get(PLAIN)?.length ?? 0,
        },
        {
          name: `${PINNED}, ${label}`,
          median: a.median,
          p95: a.p95,
          unit: 'ms',
          higherIsBetter: false,
          samples: results.get(PINNED)?.length ?? 0,
          baseline: PLAIN,
          ratio: a.median / b.median,
          note: `${((a.median - b.median) * 1000).toFixed(0)} µs more`,
        },
      ];
    };

    const rows: Row[] = [
      ...rateRows('keep-alive, one at a time', seq, SEQUENTIAL),
      ...rateRows(`keep-alive, ${IN_FLIGHT} in flight`, par, CONCURRENT),
      ...firstRows(
        'first request of a fresh client, to 127.0.0.1 (checks + connect)',
        firstByAddress,
      ),
      ...firstRows(
        'first request of a fresh client, to localhost (lookup + checks + connect)',
        firstByName,
      ),
    ];
    const notes = [
      `Server: node:http on 127.0.0.1 in this process, answering ${Buffer.byteLength(BODY)} bytes of JSON with keep-alive; each client reads every body. Rounds of ${SEQUENTIAL} sequential requests, and of ${CONCURRENT} requests with ${IN_FLIGHT} in flight; the clients take turns round by round. req/s "p95" is the rate of the 95th-percentile (slow) round.`,
      `CPU per request is this process's user + system CPU over a round divided by its requests; it includes the server's share, which is the same for every client. "paired by round" is the median of the per-round ratios (each round of one client against the other's round next to it), which cancels slow changes in machine load.`,
      `Profile, ${2 * PROFILED} sequential requests each (busy CPU per request: pinned ${perRequest(pinnedProfile)} µs, undici ${perRequest(plainProfile)} µs). Largest extra self time per pinned request, by function: ${diffLine(profileDiff(pinnedProfile, plainProfile, 2 * PROFILED, 'functions', 6))}; by package: ${diffLine(profileDiff(pinnedProfile, plainProfile, 2 * PROFILED, 'packages', 4))}.`,
      `First request: a new client per sample (created outside the timing, closed after it), ${FIRST_REQUESTS} samples each, taking turns. To 127.0.0.1 the pinned agent classifies the literal address; to localhost it calls dns.lookup once (all addresses), checks each, then dials the checked address. Loopback is not public, so the check of this machine's own interface addresses does not run here.`,
    ];
    return [
      {
        id: 'pinned-fetch',
        title: 'Pinned fetch vs undici fetch on loopback',
        rows,
        notes,
      },
    ];
  } finally {
    await pinned.close();
    await agent.close();
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
}
