import type { ServerConfig } from '@garuda/mcp-config';
import { detectSandbox, type SandboxInfo } from '@garuda/mcp-transport';
import { linkSignals } from '../common/abort.js';
import { StartCancelledError } from '../errors.js';
import type { CheckedOptions } from '../options.js';
import type { ServerRecord, ServerRegistry } from '../start/server-registry.js';
import { oneLine } from '../common/text.js';

/**
 * The sandbox servers run in: the one the host gave, else what `detectSandbox` finds on the
 * host's `PATH`. @internal
 *
 * @param options - The manager's options.
 * @param signals - Cancel the detection (the caller's, the manager's lifetime).
 * @returns What was found.
 */
export async function sandboxOnce(
  options: CheckedOptions,
  signals: readonly (AbortSignal | undefined)[],
): Promise<SandboxInfo> {
  if (options.sandbox !== undefined) return options.sandbox;
  const { controller, detach } = linkSignals(...signals);
  try {
    return await detectSandbox({
      ...(options.env.PATH === undefined ? {} : { searchPath: options.env.PATH }),
      signal: controller.signal,
    });
  } finally {
    detach();
  }
}

/**
 * The notice when local servers will run without a sandbox. @internal
 *
 * @param sandbox - What was found.
 * @param servers - The configured servers.
 * @returns The notice, or `undefined` when there is a sandbox or no enabled local server.
 */
export function noSandboxNotice(
  sandbox: SandboxInfo,
  servers: Iterable<{ readonly config: ServerConfig }>,
): string | undefined {
  if (sandbox.kind !== 'none') return undefined;
  const local = [...servers].some(
    (server) => server.config.kind === 'local' && server.config.def.enabled,
  );
  if (!local) return undefined;
  return `No OS sandbox is available (${oneLine(sandbox.reason ?? 'unknown reason')}): local MCP servers run without one, with only an allowlisted environment.`;
}

/**
 * The sandbox for a start: detected once (before the first start), with the notice when local
 * servers will run without one. A cancelled wait marks `records` stopped and throws
 * {@link StartCancelledError}. @internal
 */
export async function sandboxForStart(
  options: CheckedOptions,
  registry: ServerRegistry,
  records: readonly ServerRecord[],
  how: {
    readonly signals: readonly (AbortSignal | undefined)[];
    readonly cancelled: () => boolean;
    readonly label: string;
    readonly notice: (text: string) => void;
    /** The detection already begun (by `sandboxOnce` with the same signals), if any. */
    readonly detecting?: Promise<SandboxInfo> | undefined;
  },
): Promise<SandboxInfo> {
  let sandbox;
  try {
    sandbox = await (how.detecting ?? sandboxOnce(options, how.signals));
  } catch (error) {
    for (const record of records) registry.setState(record, 'stopped', 'its start was cancelled');
    if (how.cancelled()) throw new StartCancelledError(how.label);
    throw error;
  }
  const notice = noSandboxNotice(sandbox, registry.records.values());
  if (notice !== undefined) how.notice(notice);
  return sandbox;
}
