// What a server says besides answering: progress of a call, log messages, and requests for
// features this client does not offer. Each reaches the host cleaned and bounded, so a server that
// floods them cannot spin the host or write into its terminal.
import { isRecord, log, MCP_LOG_LEVELS } from '@garuda/internal';
import { cleanJson } from '@garuda/mcp-sanitize';
import {
  ProtocolError,
  ProtocolErrorCode,
  type JSONRPCRequest,
} from '@modelcontextprotocol/client';

import { oneLine } from '../common/text.js';
import { tellHost } from '../common/tell-host.js';
import type { CallProgress, ManagerLogger, ServerLogEntry, ServerLogLevel } from '../types.js';

/**
 * How often a call's progress reports reach the host once a burst is spent: one every this many
 * ms, in the long run at most 10 a second.
 */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * Reports of one call told at once before the interval applies: a short task's few reports
 * (0, 50, 100) all reach the host; a flood is bounded all the same.
 */
export const PROGRESS_BURST = 5;

/** The most log messages told per server and second; the rest are counted and told as one. */
export const MAX_SERVER_LOGS_PER_SECOND = 10;

/** The longest progress message, in code points. */
const MAX_PROGRESS_MESSAGE_CHARS = 200;

/** The longest log message, in code points. */
const MAX_LOG_CHARS = 500;

/** A log message's data is cut before it is read as JSON: a line is all the host shows. */
const MAX_LOG_READ_CHARS = MAX_LOG_CHARS * 8;

const LEVELS: ReadonlySet<string> = new Set<ServerLogLevel>(MCP_LOG_LEVELS);

/** The relay of one call's progress. @internal */
export interface ProgressRelay {
  /** The SDK's `onprogress`. */
  readonly onprogress: (progress: unknown) => void;
  /**
   * Ends the relay when the call's result came: the report still waiting (the last one before
   * the result, e.g. 100 of 100) is told now, so the host hears it before the result.
   */
  finish(): void;
  /** Ends the relay without a result (failed, cancelled): a report still waiting is dropped. */
  stop(): void;
}

/**
 * Relays a call's progress notifications to the host: {@link PROGRESS_BURST} reports at once,
 * then one every {@link PROGRESS_INTERVAL_MS} (a token bucket; the newest waiting report is told
 * when a turn comes, or at once when the result comes: `finish()`), only values that grow and
 * are finite, the message cleaned to one line. @internal
 *
 * @param deliver - The host's `onProgress`.
 * @param call - The server and the tool's model-facing name.
 * @param logger - Where a throwing callback is told.
 * @returns The relay; `finish()` it when the result came, `stop()` it when the call failed.
 */
export function progressRelay(
  deliver: (progress: CallProgress) => void,
  call: { readonly server: string; readonly tool: string },
  logger: ManagerLogger | undefined,
): ProgressRelay {
  let last = -Infinity;
  // The bucket: reports that may be told now, refilled one per interval up to the burst.
  let tokens = PROGRESS_BURST;
  let filledAt = Date.now();
  let pending: CallProgress | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const refill = () => {
    const now = Date.now();
    const earned = Math.floor((now - filledAt) / PROGRESS_INTERVAL_MS);
    if (earned <= 0) return;
    tokens = Math.min(PROGRESS_BURST, tokens + earned);
    filledAt = tokens === PROGRESS_BURST ? now : filledAt + earned * PROGRESS_INTERVAL_MS;
  };
  const tell = () => {
    if (stopped || pending === undefined) return;
    const report = pending;
    pending = undefined;
    tellHost('onProgress', deliver, report, logger);
  };
  const turn = () => {
    timer = undefined;
    refill();
    if (pending === undefined) return;
    if (tokens >= 1) {
      tokens -= 1;
      tell();
    } else {
      timer = setTimeout(turn, filledAt + PROGRESS_INTERVAL_MS - Date.now());
    }
  };
  return {
    onprogress(raw) {
      if (stopped || !isRecord(raw)) return;
      const { progress, total, message } = raw;
      // The spec asks for a value that grows with each notification; anything else is noise.
      if (typeof progress !== 'number' || !Number.isFinite(progress) || progress <= last) return;
      last = progress;
      const text = typeof message === 'string' ? oneLine(message, MAX_PROGRESS_MESSAGE_CHARS) : '';
      pending = {
        server: call.server,
        tool: call.tool,
        progress,
        ...(typeof total === 'number' && Number.isFinite(total) ? { total } : {}),
        ...(text === '' ? {} : { message: text }),
      };
      if (timer === undefined) turn();
    },
    finish() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      tell();
      this.stop();
    },
    stop() {
      stopped = true;
      pending = undefined;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** A log message's data as one line: a string as it is, anything else as JSON. */
function logText(data: unknown): string {
  if (typeof data === 'string') return oneLine(data, MAX_LOG_CHARS);
  if (data === undefined) return '(no message)';
  try {
    const json = JSON.stringify(cleanJson(data)) ?? String(data);
    return oneLine(json.slice(0, MAX_LOG_READ_CHARS), MAX_LOG_CHARS);
  } catch {
    return '(a log message that could not be read)';
  }
}

/**
 * One server's log messages (`notifications/message`) for the host: cleaned, one line each, at
 * most {@link MAX_SERVER_LOGS_PER_SECOND} a second; what is dropped is counted and told as one
 * entry when the next second starts. Without a host callback they go to the logger (`debug`).
 * @internal
 */
export class LogRelay {
  readonly #server: string;
  readonly #deliver: ((entry: ServerLogEntry) => void) | undefined;
  readonly #logger: ManagerLogger | undefined;
  #window = 0;
  #count = 0;
  #dropped = 0;

  constructor(
    server: string,
    deliver: ((entry: ServerLogEntry) => void) | undefined,
    logger: ManagerLogger | undefined,
  ) {
    this.#server = server;
    this.#deliver = deliver;
    this.#logger = logger;
  }

  /**
   * Takes one notification's params.
   *
   * @param params - The params as the server sent them (untrusted).
   */
  handle(params: unknown): void {
    const now = Date.now();
    if (now - this.#window >= 1000) {
      this.#window = now;
      this.#count = 0;
      if (this.#dropped > 0) {
        const dropped = this.#dropped;
        this.#dropped = 0;
        this.#count++;
        this.#tell({
          server: this.#server,
          level: 'warning',
          text: `${dropped} log message${dropped === 1 ? ' was' : 's were'} dropped (more than ${MAX_SERVER_LOGS_PER_SECOND} a second)`,
          dropped,
        });
      }
    }
    if (this.#count >= MAX_SERVER_LOGS_PER_SECOND) {
      this.#dropped++;
      return;
    }
    this.#count++;
    const record = isRecord(params) ? params : {};
    const level =
      typeof record.level === 'string' && LEVELS.has(record.level)
        ? (record.level as ServerLogLevel)
        : 'info';
    const logger = typeof record.logger === 'string' ? oneLine(record.logger, 100) : '';
    this.#tell({
      server: this.#server,
      level,
      ...(logger === '' ? {} : { logger }),
      text: logText(record.data),
    });
  }

  #tell(entry: ServerLogEntry): void {
    if (this.#deliver !== undefined) {
      tellHost('onServerLog', this.#deliver, entry, this.#logger);
      return;
    }
    const from = entry.logger === undefined ? '' : ` ${entry.logger}`;
    log(
      this.#logger,
      'debug',
      `MCP server "${this.#server}" log (${entry.level}${from}): ${entry.text}`,
    );
  }
}

/** What this client does not offer, by the request a server may send for it. */
const NOT_OFFERED: Readonly<Record<string, string>> = {
  'sampling/createMessage':
    'sampling (the client does not run the model for servers; deprecated in MCP 2026-07-28)',
  'roots/list': 'roots (the client does not list folders to servers; deprecated in MCP 2026-07-28)',
  'elicitation/create': 'elicitation (this host cannot ask the user for input)',
};

/**
 * The answer to a request from a server that no handler takes (sampling, roots, elicitation
 * without a host that can ask…): a `Method not found` error that says what is not offered. The
 * client declares none of these capabilities, so a server that asks anyway is told plainly.
 * @internal
 *
 * @param server - The server's name.
 * @param logger - Where the refusal is told (`debug`).
 * @returns The SDK client's `fallbackRequestHandler`.
 */
export function refuseServerRequest(
  server: string,
  logger: ManagerLogger | undefined,
): (request: JSONRPCRequest) => Promise<never> {
  return (request) => {
    const method = oneLine(request.method, 100);
    const what = NOT_OFFERED[request.method] ?? `"${method}"`;
    log(logger, 'debug', `MCP server "${server}" asked for ${method}: refused (not offered)`);
    return Promise.reject(
      new ProtocolError(ProtocolErrorCode.MethodNotFound, `Garuda MCP does not offer ${what}`),
    );
  };
}
