import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import {
  deserializeMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import {
  badMessage,
  MessageTooLargeError,
  ProcessExitedError,
  SpawnFailedError,
  TransportClosedError,
  TransportErrorCode,
} from './errors.js';
import { JsonLineReader } from './json-line-reader.js';
import { StderrTail } from './stderr-tail.js';

/** The largest JSON-RPC message read from a server by default: 4 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Options of {@link ProcessTransport}. */
export interface ProcessTransportOptions {
  /** The program to run (for a sandboxed server, what `buildSandbox` returned). Never run through a shell. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /** The complete environment of the process (nothing else is inherited). Default: empty. */
  readonly env?: Readonly<Record<string, string>>;
  /** The working folder. */
  readonly cwd?: string;
  /** The largest message read, in bytes; a longer line is reported and skipped. Default 4 MiB. */
  readonly maxMessageBytes?: number;
  /** How many stderr lines to keep for error messages. Default 40. */
  readonly stderrLines?: number;
  /** How many of the first stderr lines to keep as well, once they scroll out. Default 10. */
  readonly stderrHeadLines?: number;
  /** The longest stderr line kept, in characters. Default 1 000. */
  readonly stderrLineChars?: number;
  /** How long `close()` waits after ending stdin, and again after SIGTERM. Default 2 000 ms. */
  readonly closeGraceMs?: number;
}

/** How a server process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /**
   * Whether `close()` asked for it: false when the server was already ending by itself (its end
   * of a pipe closed) before `close()` was called, as when a client gives up on a server that
   * crashed during the handshake.
   */
  readonly requested: boolean;
}

/**
 * An MCP `Transport` over a local server process speaking newline-delimited JSON-RPC on stdio.
 * It never uses a shell, puts the server in its own process group (so `close()` also stops the
 * server's own children), caps each incoming message (a bad or oversized line is reported
 * through `onerror` and reading goes on), keeps the last stderr lines for error messages, and
 * honours back-pressure when writing.
 *
 * It spawns the process itself instead of using the SDK's stdio transport, so the caller decides
 * exactly what runs: wrap the command with `buildSandbox` first.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/client';
 * import { ProcessTransport } from '@garuda/mcp-transport';
 *
 * const transport = new ProcessTransport({ command: 'node', args: ['server.mjs'], env: { PATH: '/usr/bin:/bin' } });
 * const client = new Client({ name: 'me', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
 * await client.connect(transport);
 * ui.show((await client.listTools()).tools.map((t) => t.name));
 * await client.close();
 * ```
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /**
   * What runs: kept until `start()` only. The arguments (a sandbox's are hundreds of strings)
   * and the environment are not needed once the process runs, so a connected server does not
   * keep them.
   */
  #spawn: Pick<ProcessTransportOptions, 'args' | 'env' | 'cwd'> | undefined;
  readonly #command: string;
  readonly #maxMessageBytes: number;
  readonly #closeGraceMs: number;
  readonly #tail: StderrTail;
  #child: ChildProcess | undefined;
  #closing = false;
  #closed = false;
  #exit: ProcessExit | undefined;
  #exited: Promise<void> | undefined;
  #endingByItself = false;

  constructor(options: ProcessTransportOptions) {
    if (typeof options?.command !== 'string' || options.command === '') {
      throw new TypeError('ProcessTransport needs a command: pass { command, args, env }');
    }
    this.#spawn = { args: options.args, env: options.env, cwd: options.cwd };
    this.#command = options.command;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#closeGraceMs = options.closeGraceMs ?? 2_000;
    this.#tail = new StderrTail(
      options.stderrLines ?? 40,
      options.stderrLineChars ?? 1_000,
      options.stderrHeadLines ?? 10,
    );
  }

  /** The server's process id, once started. The SDK also uses its presence to recognise stdio. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The server's stderr stream, once started (also read by this transport for {@link stderrTail}). */
  get stderr(): Readable | null {
    return this.#child?.stderr ?? null;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** The last lines the server wrote to stderr, cleaned, oldest first. */
  stderrTail(): string[] {
    return this.#tail.lines();
  }

  /**
   * The first lines the server wrote to stderr that are no longer in {@link stderrTail} (at most
   * `stderrHeadLines`), cleaned, oldest first: where a program that then prints its usage said
   * what is wrong.
   */
  stderrHead(): string[] {
    return this.#tail.headLines();
  }

  /**
   * Starts the process. Resolves once it runs; rejects with {@link SpawnFailedError} `TRANSPORT_COMMAND_NOT_FOUND` when the
   * command does not exist and {@link SpawnFailedError} when it cannot be started.
   */
  start(): Promise<void> {
    const spawnWith = this.#spawn;
    if (this.#child || this.#closed || spawnWith === undefined) {
      return Promise.reject(
        new TransportClosedError('this transport was already started; create a new one'),
      );
    }
    const command = this.#command;
    const { args = [], env = {}, cwd } = spawnWith;
    const child = spawn(command, [...args], {
      cwd,
      env: { ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      // Its own process group: close() signals the whole group, grandchildren included.
      detached: true,
      windowsHide: true,
    });
    this.#child = child;
    this.#spawn = undefined;
    const maxMessageBytes = this.#maxMessageBytes;
    const reader = new JsonLineReader(maxMessageBytes, {
      onLine: (line) => this.#handleLine(line),
      onOversized: (excerpt, bytes, shape) =>
        this.#report(
          new MessageTooLargeError(bytes, maxMessageBytes, excerpt, shape),
        ),
    });
    child.stdout?.on('data', (chunk: Buffer) => reader.push(chunk));
    child.stdout?.on('end', () => reader.end());
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => this.#tail.push(text));
    child.stderr?.on('end', () => this.#tail.end());
    // The server closing its end of a pipe before close() was asked means it is ending by
    // itself: its exit is then its own, even when close() comes before the exit is seen.
    const ending = () => {
      if (!this.#closing) this.#endingByItself = true;
    };
    child.stdin?.on('close', ending);
    child.stdout?.on('end', ending);
    // A server that stops reading makes writes fail with EPIPE: report, never crash the host.
    child.stdin?.on('error', (error) => {
      ending();
      if (!this.#closing) this.#report(error);
    });
    this.#exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        this.#finish(code, signal);
        resolve();
      });
    });

    return new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error: NodeJS.ErrnoException) => {
        if (child.pid === undefined) {
          this.#closed = true;
          const code =
            error.code === 'ENOENT'
              ? TransportErrorCode.COMMAND_NOT_FOUND
              : TransportErrorCode.SPAWN_FAILED;
          reject(new SpawnFailedError(code, command, error));
        } else {
          this.#report(error);
        }
      });
    });
  }

  /** Sends one message, waiting for the pipe to drain when the server reads slowly. */
  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closed || this.#closing || !stdin.writable) {
      throw new TransportClosedError(
        'the server process is not running: its messages cannot be sent',
      );
    }
    if (stdin.write(serializeMessage(message))) return;
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        stdin.off('drain', onDrain);
        stdin.off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onDrain = () => done();
      const onClose = () =>
        done(
          new TransportClosedError(
            'the server process closed its input while a message was being sent',
          ),
        );
      stdin.once('drain', onDrain);
      stdin.once('close', onClose);
    });
  }

  /**
   * Stops the server: ends its stdin, waits `closeGraceMs` for it to exit, then sends SIGTERM to
   * its process group, and SIGKILL after another `closeGraceMs`. Resolves when the process has
   * gone. `onclose` fires exactly once.
   */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#closed) {
      this.#finish(null, null);
      return;
    }
    this.#closing = true;
    const grace = this.#closeGraceMs;
    child.stdin?.end();
    if (!(await this.#waitExit(grace))) {
      this.#signalGroup('SIGTERM');
      if (!(await this.#waitExit(grace))) {
        this.#signalGroup('SIGKILL');
        await this.#waitExit(grace);
      }
    }
    // The leader is gone; anything it left in its group goes too.
    this.#signalGroup('SIGKILL');
  }

  #waitExit(ms: number): Promise<boolean> {
    if (this.#closed || !this.#exited) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.#exited?.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  #signalGroup(signal: NodeJS.Signals): void {
    const pid = this.#child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already empty.
    }
  }

  #handleLine(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.#report(badMessage(line, error));
      return;
    }
    this.onmessage?.(message);
  }

  #report(error: Error): void {
    try {
      this.onerror?.(error);
    } catch {
      // A throwing handler must not stop the reading.
    }
  }

  #finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#child) {
      this.#exit = { code, signal, requested: this.#closing && !this.#endingByItself };
      if (!this.#closing) {
        this.#report(
          new ProcessExitedError(this.#command, code, signal, this.#tail.lines()),
        );
        // The server is gone; helpers it started in its group go with it.
        this.#signalGroup('SIGKILL');
      }
    }
    this.onclose?.();
  }
}
