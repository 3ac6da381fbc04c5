// What every step of the demo uses: the demo's handles, and small helpers for its text.

import {
  CallCancelledError,
  CallDeclinedError,
  type McpManager,
  StartCancelledError,
  sandboxText,
  type ManagerCallResult,
  type StatusRow,
} from '@garuda/mcp-manager';
import type { McpTool } from '@garuda/mcp-tools';
import type { Output } from '../../output.js';
import type * as FixturesModule from './fixtures.js';
import { type DemoWorld } from './demo-world.js';

export type Fixtures = typeof FixturesModule;

/** What the demo hears of a server's runtime change: a tool list change or a held-back note. */
export class Heard {
  #waiting: (() => void) | undefined;
  hear(): void {
    this.#waiting?.();
    this.#waiting = undefined;
  }
  /** Resolves at the next change, at an abort, or after {@link RUNTIME_CHANGE_LIMIT_MS}. */
  next(signal: AbortSignal): Promise<void> {
    const limit = AbortSignal.any([signal, AbortSignal.timeout(RUNTIME_CHANGE_LIMIT_MS)]);
    return new Promise((resolve) => {
      const done = () => {
        limit.removeEventListener('abort', done);
        resolve();
      };
      this.#waiting = done;
      limit.addEventListener('abort', done, { once: true });
    });
  }
}

/** What every step uses. */
export interface Demo {
  readonly output: Output;
  readonly mcp: McpManager;
  readonly world: DemoWorld;
  readonly fixtures: Fixtures;
  readonly signal: AbortSignal;
  heading(title: string): void;
  say(text: string): void;
  explain(text: string): void;
  row(name: string): StatusRow | undefined;
}

export function isInterrupt(error: unknown, signal: AbortSignal): boolean {
  return (
    signal.aborted ||
    StartCancelledError.isInstance(error) ||
    CallCancelledError.isInstance(error) ||
    (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortError'))
  );
}

export function unwrap(text: string): string {
  return text.replace(/^<mcp_result [^>]*>\n/, '').replace(/\n<\/mcp_result>$/, '');
}

/** The description a model gets, without the manager's `[From MCP server …]` preamble. */
export function ownText(tool: McpTool): string {
  return tool.description.replace(/^\[From MCP server [^\]]*\]\s*/, '');
}

export function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

export function noSandboxReason(row: StatusRow): string {
  return row.sandbox.kind === 'none' ? row.sandbox.reason : sandboxText(row.sandbox);
}

/** A call through the manager; a declined call (a person said no) is told, not thrown. */
export async function call(
  demo: Demo,
  name: string,
  args: Record<string, unknown>,
): Promise<ManagerCallResult | undefined> {
  try {
    return await demo.mcp.call(name, args, { signal: demo.signal });
  } catch (error) {
    if (!CallDeclinedError.isInstance(error)) throw error;
    demo.say('You declined the call, so it did not run (the model would be told so).');
    return undefined;
  }
}

/** How long the demo waits for the pin check of a tool added at runtime. */
const RUNTIME_CHANGE_LIMIT_MS = 60_000;
