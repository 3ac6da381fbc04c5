// A minimal process transport for this package's own tests (the product's is ProcessTransport
// in @garuda/mcp-transport). It records what the fixture does on the wire: the byte length of
// every stdout line, the exit code and signal, and all of stderr.
import {
  deserializeMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class SpawnTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Byte length of every complete stdout line, in order. */
  readonly lineLengths: number[] = [];
  /** Every complete stdout line, when constructed with `keepLines: true`. */
  readonly lines: string[] = [];
  /** Lines that were not JSON at all (the SDK drops those silently). */
  readonly nonJsonLines: string[] = [];
  stderrText = '';
  /** Resolves when the process has exited and its pipes are closed. */
  readonly exited: Promise<ExitInfo>;

  #child?: ChildProcessWithoutNullStreams;
  #pending: Buffer[] = [];
  #resolveExit!: (info: ExitInfo) => void;

  constructor(
    private readonly command: string,
    private readonly args: string[],
    private readonly options: { env?: NodeJS.ProcessEnv; cwd?: string; keepLines?: boolean } = {},
  ) {
    this.exited = new Promise((resolve) => (this.#resolveExit = resolve));
  }

  // The SDK treats a transport with `pid` and `stderr` as stdio during version negotiation.
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  get stderr(): Readable | null {
    return this.#child?.stderr ?? null;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, this.args, {
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        env: this.options.env ?? process.env,
        cwd: this.options.cwd,
      });
      this.#child = child;
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.stdin.on('error', () => {}); // EPIPE after the process died: the exit says it all
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => (this.stderrText += chunk));
      child.stdout.on('data', (chunk: Buffer) => this.#onData(chunk));
      child.once('close', (code, signal) => {
        this.#resolveExit({ code, signal });
        this.onclose?.();
      });
    });
  }

  #onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.#pending.push(chunk.subarray(start, nl));
      start = nl + 1;
      const line = Buffer.concat(this.#pending);
      this.#pending = [];
      this.lineLengths.push(line.length);
      this.#onLine(line.toString('utf8'));
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  #onLine(line: string): void {
    if (this.options.keepLines) this.lines.push(line);
    try {
      JSON.parse(line);
    } catch {
      this.nonJsonLines.push(line);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.destroyed) throw new Error('not connected');
    if (!stdin.write(serializeMessage(message))) {
      await new Promise((resolve) => stdin.once('drain', resolve));
    }
  }

  /** Ends stdin (EOF for the server) and leaves the process alone. */
  endStdin(): void {
    this.#child?.stdin.end();
  }

  /** Ends stdin, then SIGKILLs the process if it is still there after `graceMs`. */
  async close(graceMs = 1000): Promise<void> {
    const child = this.#child;
    if (!child) return;
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) {
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
  }
}
