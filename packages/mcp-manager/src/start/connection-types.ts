// The shapes of one server connection: how it is launched, what opening it needs and gives, and
// how its failures are worded.
import {
  ProcessTransport,
  TransportClosedError,
  buildSandbox,
  type ProcessExit,
  type SandboxInfo,
  type SandboxPolicy,
} from '@garuda/mcp-transport';
import { SdkError, SdkErrorCode, type Tool, type Transport } from '@modelcontextprotocol/client';
import type { ServerAnswers } from '../elicit/elicitation.js';
import type { ServerConnection } from './server-connection.js';
import type { ServerLists } from '../offer/server-lists.js';
import { stderrExcerpt } from './stderr-excerpt.js';
import { messageOf } from '../common/text.js';
import type { ManagerLogger, ServerLogEntry } from '../types.js';

/** Whether a failure is the connection or the pipe to the server closing (it may be exiting). @internal */
export function isClosedConnection(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    if (TransportClosedError.isInstance(current)) return true;
    if (current instanceof SdkError && current.code === SdkErrorCode.ConnectionClosed) return true;
    const code = (current as { code?: unknown }).code;
    if (code === 'EPIPE' || code === 'ECONNRESET' || code === 'ERR_STREAM_DESTROYED') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** How a local server is started. @internal */
export interface LocalLaunch {
  readonly kind: 'local';
  /** The server's command and arguments, as configured. */
  readonly argv: readonly string[];
  /** The sandbox policy (expanded env, write paths, network…). */
  readonly policy: SandboxPolicy;
  /** What `detectSandbox` found. */
  readonly sandbox: SandboxInfo;
}

/**
 * What a call does when the server refuses it for its sign-in (an `UnauthorizedError` from the
 * SDK: the sign-in expired, or it needs more scopes): `true` once a new sign-in is done (the call
 * is sent again), `false` when `error` is not about the sign-in. Throws when the sign-in did not
 * happen. @internal
 */
export type Reauthorize = (error: unknown, tool: string, signal: AbortSignal) => Promise<boolean>;

/** How a remote server is reached: a fresh HTTP transport (one per connection attempt). @internal */
export interface RemoteLaunch {
  readonly kind: 'remote';
  readonly transport: Transport;
  /** Signs in again when a call needs it (OAuth servers only). */
  readonly reauthorize?: Reauthorize | undefined;
}

/** What {@link ServerConnection.open} needs. @internal */
export interface OpenOptions {
  /** The server's name (a valid config name). */
  readonly server: string;
  /** A local process in its sandbox, or a remote transport. */
  readonly launch: LocalLaunch | RemoteLaunch;
  /** `{ name, version }` of the host, sent to the server. */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The limit for start + connect + list. */
  readonly timeoutMs: number;
  /** Cancels the start (the process is stopped). */
  readonly signal: AbortSignal;
  /** Receives a notice for each malformed tool the list filter skipped. */
  readonly onSkip: (notice: string) => void;
  /**
   * Receives the stop of a server whose start failed: it is not waited for (a broken server
   * must not hold up the start), but the manager's `close()` waits for it.
   */
  readonly track: (stopping: Promise<void>) => void;
  readonly logger?: ManagerLogger | undefined;
  /** Receives the server's log messages (cleaned, rate-limited); without it they go to `logger`. */
  readonly onLog?: ((entry: ServerLogEntry) => void) | undefined;
  /** How the server's questions (elicitation) are answered; none when the host cannot ask. */
  readonly answers?: ServerAnswers | undefined;
}

/** The outcome of {@link ServerConnection.open}. @internal */
export type OpenResult =
  | {
      readonly ok: true;
      readonly connection: ServerConnection;
      readonly tools: readonly Tool[];
      /** Its prompts and resources, as listed (none when it offers none). */
      readonly lists: ServerLists;
    }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly cancelled: boolean;
      /** The error that ended the start, when there was one (e.g. the SDK's `UnauthorizedError`). */
      readonly error?: unknown;
      /** True when the start's time limit ended it. */
      readonly timedOut?: boolean;
      /** A local server's last stderr lines (raw: clean before showing). */
      readonly stderr?: readonly string[];
    };

/** Authorization attempts per connect, and new sign-ins per call (a server that keeps asking stops here). */
export const MAX_AUTHORIZATIONS = 3;

/** A time limit in words. @internal */
export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** What comes between a reason and its stderr excerpt. @internal */
export const STDERR_PART = '; stderr: ';

/** `reason`, and what the server's stderr says about it (the line that looks like the error). */
export function withExcerpt(reason: string, stderr: readonly string[]): string {
  const excerpt = stderrExcerpt(stderr);
  return excerpt === undefined ? reason : `${reason}${STDERR_PART}${excerpt}`;
}

/** How a process ended, with its stderr excerpt. @internal */
export function describeExit(exit: ProcessExit, stderr: readonly string[]): string {
  const how = exit.signal ? `was stopped by ${exit.signal}` : `exited with code ${exit.code}`;
  return withExcerpt(how, stderr);
}

/**
 * A local server's process in its sandbox, not started yet; or why it cannot be. Said where it
 * applies: the consent screen named the detected sandbox, so a build of another kind (a plain
 * command) would be a broken promise, and is refused. @internal
 */
export function localTransport(
  launch: LocalLaunch,
): { readonly transport: ProcessTransport } | { readonly reason: string } {
  let spawnable;
  try {
    spawnable = buildSandbox(launch.argv, launch.policy, launch.sandbox);
  } catch (error) {
    return { reason: `it could not be started: ${messageOf(error)}` };
  }
  const { sandboxed, ...spawn } = spawnable;
  if (sandboxed.kind !== launch.sandbox.kind) {
    return {
      reason: `it was not started: its sandbox would be ${sandboxed.kind}, not ${launch.sandbox.kind}`,
    };
  }
  return { transport: new ProcessTransport(spawn) };
}
