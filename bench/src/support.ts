// What the call, start and memory suites share: throwaway homes and projects with their
// mcp.json, a prompter that approves at once, the same fixture server for every client, and
// small readings of this process and its children (CPU, processes, memory).
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { McpManager, type Prompter } from '@garuda/mcp-manager';
import { detectSandbox, type SandboxInfo } from '@garuda/mcp-transport';
import { FIXTURE_SERVER, tempDir, type TempDir } from '@garuda/test-utils';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** This checkout: sandboxed servers must be able to read the fixtures and their node_modules. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `counted-server.mjs`: logs its pid, then runs the server it is given. */
export const COUNTED_SERVER = fileURLToPath(
  new URL('../fixtures/counted-server.mjs', import.meta.url),
);

/** `flood-server.mjs`: `echo`, and `flood {count, mb}` for the memory suite. */
export const FLOOD_SERVER = fileURLToPath(new URL('../fixtures/flood-server.mjs', import.meta.url));

/** The sandbox the manager runs without: what it reports when the machine has none. */
export const NO_SANDBOX: SandboxInfo = { kind: 'none', reason: 'turned off for this benchmark' };

/** The environment every client gives its servers (the manager's allowlist takes the same). */
export const SERVER_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/',
  LANG: 'C.UTF-8',
};

/** The client's name and version, for every client under test. */
export const CLIENT_INFO = { name: 'garuda-bench', version: '0.0.0' } as const;

let detected: Promise<SandboxInfo> | undefined;

/** The OS sandbox of this machine, probed once. */
export function machineSandbox(): Promise<SandboxInfo> {
  detected ??= detectSandbox({ searchPath: process.env.PATH });
  return detected;
}

/** A prompter that allows every server and approves every call at once, and keeps the notices. */
export function approvingPrompter(): Prompter & { readonly notices: string[] } {
  const notices: string[] = [];
  return {
    notices,
    consent: () => Promise.resolve('once'),
    notice: (text) => {
      notices.push(text);
    },
    approveCall: () => Promise.resolve(true),
  };
}

/** A server as written in mcp.json. */
export type ServerEntry = {
  readonly command: string;
  readonly args: readonly string[];
  /** Declared capabilities (e.g. `['read']`). */
  readonly capabilities?: readonly string[];
};

/** A throwaway user (home folder, Garuda home) and project, with the user's mcp.json. */
export class BenchWorkspace {
  readonly root: string;
  readonly home: string;
  readonly userHome: string;
  readonly #dir: TempDir;

  private constructor(dir: TempDir) {
    this.#dir = dir;
    this.root = path.join(dir.path, 'project');
    this.userHome = path.join(dir.path, 'user');
    this.home = path.join(this.userHome, '.garuda');
  }

  /** Creates the folders (under the OS temp folder). */
  static async create(): Promise<BenchWorkspace> {
    const ws = new BenchWorkspace(await tempDir('garuda-bench-'));
    await mkdir(path.join(ws.root, '.garuda'), { recursive: true });
    await mkdir(ws.home, { recursive: true });
    return ws;
  }

  /** A file in the project (writable for sandboxed servers too). */
  file(name: string): string {
    return path.join(this.root, name);
  }

  /** Writes the user's mcp.json with these servers. */
  async servers(servers: Record<string, ServerEntry>): Promise<void> {
    await writeFile(path.join(this.home, 'mcp.json'), JSON.stringify({ servers }, null, 2));
  }

  /**
   * A manager on this workspace, with the given sandbox (the caller closes it).
   *
   * @param sandbox - `machineSandbox()`, or {@link NO_SANDBOX}.
   * @param options - The prompter (default: approves at once) and allow rules (default none).
   */
  manager(
    sandbox: SandboxInfo,
    options: {
      prompter?: Prompter;
      allow?: readonly string[];
      startMode?: 'eager' | 'lazy';
      auditLog?: false;
    } = {},
  ): McpManager {
    return new McpManager({
      root: this.root,
      home: this.home,
      userHome: this.userHome,
      env: SERVER_ENV,
      clientInfo: CLIENT_INFO,
      prompter: options.prompter ?? approvingPrompter(),
      rules: { allow: options.allow ?? [] },
      tools: { startMode: options.startMode ?? 'eager' },
      ...(options.auditLog === false ? { storage: { auditLog: false } } : {}),
      // The fixtures live in this checkout, which may be under a temp folder.
      sandbox: { info: sandbox, readPaths: [REPO_ROOT] },
    });
  }

  /** Removes the folders. */
  cleanup(): Promise<void> {
    return this.#dir.cleanup();
  }
}

/** The fixture server in `mode`, started through `counted-server.mjs` that logs to `log`. */
export function countedFixture(log: string, mode = 'normal'): ServerEntry {
  return { command: process.execPath, args: [COUNTED_SERVER, log, FIXTURE_SERVER, mode] };
}

/** Server names `s00`, `s01`… (valid config names, sorted as numbered). */
export function serverNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `s${String(i).padStart(2, '0')}`);
}

/** How many pids a `counted-server.mjs` log holds (0 when it does not exist yet). */
export async function launches(log: string): Promise<number> {
  try {
    return (await readFile(log, 'utf8')).split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** Creates (or empties) a log file. */
export async function resetLog(log: string): Promise<void> {
  await writeFile(log, '');
}

const TICKS_PER_SECOND = 100;

/**
 * CPU time of this process's children that have ended and were reaped (with their own reaped
 * children: bubblewrap reaps the server, we reap bubblewrap), in ms. Linux only (`/proc`);
 * `NaN` elsewhere. The clock tick is taken as 100 Hz (USER_HZ on every Linux build we run on).
 */
export function reapedChildrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command (which may hold spaces) start after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime are fields 16 and 17 of stat, i.e. 14 and 15 after the command.
    const ticks = Number(fields[13]) + Number(fields[14]);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time used so far by these processes (user + system, each process alone, not its
 * children), in ms; processes gone meanwhile count 0. Linux only (`/proc`).
 */
export function processesCpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after the command.
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone while we looked.
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** The live (not zombie) descendants of this process, from `/proc` (Linux; empty elsewhere). */
export function descendants(): number[] {
  const parents = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // Gone while we looked.
    }
  }
  const found: number[] = [];
  const wanted = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (wanted.has(parent) && !wanted.has(pid)) {
        wanted.add(pid);
        found.push(pid);
        grew = true;
      }
    }
  }
  return found;
}

/** The live descendants of this process that are not in `before` (e.g. tsx's esbuild service). */
export function newDescendants(before: ReadonlySet<number>): number[] {
  return descendants().filter((pid) => !before.has(pid));
}

/**
 * Waits until no live descendant of this process is left besides those in `before` (or
 * `timeoutMs` passed).
 *
 * @returns Whether none is left.
 */
export async function noChildrenLeft(
  before: ReadonlySet<number>,
  timeoutMs = 10_000,
): Promise<boolean> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (newDescendants(before).length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return newDescendants(before).length === 0;
}

/** Milliseconds with two decimals, for notes. */
export function ms(value: number): string {
  return `${value.toFixed(value >= 100 ? 0 : 2)} ms`;
}

/** Mebibytes with one decimal, for notes. */
export function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/** Plain SDK clients, one per server, as the SDK-loop baseline connects them. */
export interface SdkClients {
  readonly clients: readonly Client[];
  /** Tools listed per server, in the order of the entries. */
  readonly toolCounts: readonly number[];
  /** Closes every client, and every transport whose connect failed. */
  close(): Promise<void>;
}

/**
 * The SDK-loop baseline: a plain SDK `Client` over the SDK's own `StdioClientTransport` per
 * server, all connecting at once (`versionNegotiation: 'auto'`, as McpManager), each listing its
 * tools. On a failure everything started is closed before the error is thrown.
 */
export async function connectSdkClients(
  entries: Readonly<Record<string, ServerEntry>>,
): Promise<SdkClients> {
  const clients: Client[] = [];
  const transports: StdioClientTransport[] = [];
  const close = async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    // A transport whose connect failed is not closed by its client.
    await Promise.allSettled(transports.map((transport) => transport.close()));
  };
  try {
    const toolCounts = await Promise.all(
      Object.values(entries).map(async (entry) => {
        const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: 'auto' } });
        clients.push(client);
        const transport = new StdioClientTransport({
          command: entry.command,
          args: [...entry.args],
          env: SERVER_ENV,
          stderr: 'ignore',
        });
        transports.push(transport);
        await client.connect(transport);
        return (await client.listTools()).tools.length;
      }),
    );
    return { clients, toolCounts, close };
  } catch (error) {
    await close();
    throw error;
  }
}
