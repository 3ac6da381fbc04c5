// One memory measurement in a fresh process (the memory suite starts one per run, so what earlier
// suites left on the heap or in RSS does not count): `node --expose-gc --import tsx
// memory-probe.ts '<scenario JSON>'` prints one JSON line with the readings.
import process from 'node:process';
import { getHeapSpaceStatistics } from 'node:v8';
import { FIXTURE_SERVER } from '@garuda/test-utils';
import type { Client } from '@modelcontextprotocol/client';
import {
  BenchWorkspace,
  FLOOD_SERVER,
  connectSdkClients,
  machineSandbox,
  serverNames,
  type ServerEntry,
} from './support.js';

/** What one probe measures. */
export type Scenario =
  | {
      readonly kind: 'idle';
      readonly client: 'manager' | 'sdk';
      readonly servers: number;
      /** Servers of the warm-up connection (default 1). */
      readonly warm?: number;
    }
  | {
      readonly kind: 'flood';
      readonly client: 'manager' | 'sdk';
      readonly count: number;
      readonly mb: number;
    };

/** A reading of this process's memory, in bytes. */
export interface Reading {
  readonly rss: number;
  readonly heapUsed: number;
  /** Memory outside the JS heap held by JS objects (Buffers included). */
  readonly external: number;
  /**
   * The part of `heapUsed` in V8's code spaces: compiled code, which V8 makes once per function
   * as it gets hot, not per server.
   */
  readonly code: number;
}

/** What a probe prints. */
export type ProbeResult =
  | { readonly kind: 'idle'; readonly before: Reading; readonly after: Reading }
  | {
      readonly kind: 'flood';
      readonly before: Reading;
      readonly peak: Reading;
      /** After the flood, after a full GC. */
      readonly after: Reading;
      readonly bytes: number;
      readonly floodMs: number;
      readonly samples: number;
      /** The longest gap between two samples (the event loop was busy), ms. */
      readonly maxGapMs: number;
    };

const SAMPLE_EVERY_MS = 5;
/**
 * Bounds for a loaded machine (two CPU burners beside the run): 30 sandboxed servers starting at
 * once, and the SDK client parsing 500 MiB of messages, take many times their idle time. The
 * suite bounds the whole probe as well.
 */
const START_TIMEOUT_MS = 180_000;
const FLOOD_CALL_TIMEOUT_MS = 240_000;

/** A server of the probe, with the loaded machine's bounds for McpManager (mcp.json keys). */
type ProbeEntry = ServerEntry & { readonly startTimeoutMs: number; readonly timeoutMs?: number };

function read(): Reading {
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, heapUsed, external, code: codeBytes() };
}

function codeBytes(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name.startsWith('code_')) used += space.space_used_size;
  }
  return used;
}

/** A reading after two full GCs with a pause between (V8 gives pages back lazily). */
async function settled(): Promise<Reading> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  gc();
  await new Promise((resolve) => setTimeout(resolve, 100));
  gc();
  return read();
}

/** A connected client with a `call(tool, args)` that returns the result's text, and `close`. */
interface Connected {
  call(tool: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

async function connectManager(ws: BenchWorkspace, entries: Record<string, ProbeEntry>) {
  await ws.servers(entries);
  const manager = ws.manager(await machineSandbox());
  const connected: Connected = {
    call: async (tool, args) => {
      const server = Object.keys(entries)[0] as string;
      const result = await manager.call(`mcp__${server}__${tool}`, args);
      return result.text.replace(/^<mcp_result [^>]*>\n/, '').replace(/\n<\/mcp_result>$/, '');
    },
    close: () => manager.close(),
  };
  try {
    await manager.start();
    const failed = manager.status().filter((row) => row.state !== 'connected');
    if (failed.length > 0) throw new Error(`not connected: ${JSON.stringify(failed)}`);
  } catch (error) {
    await manager.close();
    throw error;
  }
  return connected;
}

async function connectSdk(entries: Record<string, ProbeEntry>): Promise<Connected> {
  const { clients, close } = await connectSdkClients(entries);
  return {
    call: async (tool, args) => {
      const result = await (clients[0] as Client).callTool(
        { name: tool, arguments: args },
        { timeout: FLOOD_CALL_TIMEOUT_MS },
      );
      const first = result.content[0];
      return first?.type === 'text' ? first.text : '';
    },
    close,
  };
}

async function probe(scenario: Scenario): Promise<ProbeResult> {
  const ws = await BenchWorkspace.create();
  let connected: Connected | undefined;
  try {
    const fixture: ProbeEntry = {
      command: process.execPath,
      args: [FIXTURE_SERVER, 'normal'],
      startTimeoutMs: START_TIMEOUT_MS,
    };
    const entries: Record<string, ProbeEntry> =
      scenario.kind === 'idle'
        ? Object.fromEntries(serverNames(scenario.servers).map((name) => [name, fixture]))
        : {
            flood: {
              command: process.execPath,
              args: [FLOOD_SERVER],
              startTimeoutMs: START_TIMEOUT_MS,
              timeoutMs: FLOOD_CALL_TIMEOUT_MS,
            },
          };
    const connect = (servers: Record<string, ProbeEntry>) =>
      scenario.client === 'manager' ? connectManager(ws, servers) : connectSdk(servers);
    if (scenario.kind === 'idle') {
      // A first connection, closed again, so that code compiled and tables built once (the
      // same for 1 or 30 servers) are in the baseline and the reading is what each server adds.
      const warm = await connect(
        Object.fromEntries(serverNames(scenario.warm ?? 1).map((name) => [`w${name}`, fixture])),
      );
      await warm.close();
      const before = await settled();
      connected = await connect(entries);
      return { kind: 'idle', before, after: await settled() };
    }
    connected = await connect(entries);

    // One call first, so that what the first call allocates is in the baseline.
    await connected.call('echo', { text: 'hello' });
    const base = await settled();
    let peak = base;
    let samples = 0;
    let maxGapMs = 0;
    let last = performance.now();
    const sample = () => {
      const now = performance.now();
      maxGapMs = Math.max(maxGapMs, now - last);
      last = now;
      samples++;
      const r = read();
      peak = {
        rss: Math.max(peak.rss, r.rss),
        heapUsed: Math.max(peak.heapUsed, r.heapUsed),
        external: Math.max(peak.external, r.external),
        code: Math.max(peak.code, r.code),
      };
    };
    const timer = setInterval(sample, SAMPLE_EVERY_MS);
    const t = performance.now();
    let text: string;
    try {
      text = await connected.call('flood', { count: scenario.count, mb: scenario.mb });
    } finally {
      clearInterval(timer);
    }
    const floodMs = performance.now() - t;
    sample();
    const bytes = Number(text);
    if (!Number.isFinite(bytes) || bytes <= 0) throw new Error(`unexpected flood answer: ${text}`);
    return {
      kind: 'flood',
      before: base,
      peak,
      after: await settled(),
      bytes,
      floodMs,
      samples,
      maxGapMs,
    };
  } finally {
    await connected?.close();
    await ws.cleanup();
  }
}

const scenario = JSON.parse(process.argv[2] ?? '{}') as Scenario;
process.stdout.write(`${JSON.stringify(await probe(scenario))}\n`);
