// The risk of a server's calls, from what the user declared it can do (never from what the
// server says of itself), and which calls an approval mode runs without asking. The one place
// these are decided: approval, consent screens and status() all ask here.
import type { ServerConfig, ToolCapability } from '@garuda/mcp-config';

/**
 * How much a call of a server can do: `low` (declared read-only), `high` (it may write, reach
 * the network, run commands or return text from outside; also every undeclared server), or
 * `destructive` (declared `irreversible`).
 */
export type RiskTier = 'low' | 'high' | 'destructive';

/** Which calls run without asking: one of {@link APPROVAL_MODES}. */
export type ApprovalMode = 'ask' | 'balanced' | 'trusted';

/**
 * The approval modes, from the most careful, each with its one-line description: the one place
 * they are described (option errors and the CLI's help and usage errors are made from it). A
 * call of a server declared `irreversible` (destructive tier) always asks, in every mode.
 *
 * @example
 * ```ts
 * for (const [mode, what] of Object.entries(APPROVAL_MODES)) show(`${mode}: ${what}`); // your UI
 * ```
 */
export const APPROVAL_MODES: Readonly<Record<ApprovalMode, string>> = Object.freeze({
  ask: 'every call asks',
  balanced: 'calls of servers declared read-only run without asking',
  trusted: 'only calls of servers declared irreversible ask',
});

const HIGH: ReadonlySet<ToolCapability> = new Set([
  'write',
  'network',
  'shell',
  'untrusted_output',
]);

/**
 * The tier of a server's calls from its declared capabilities. @internal
 *
 * @param capabilities - As declared; `undefined` when the user did not declare them.
 */
export function riskTier(capabilities: readonly ToolCapability[] | undefined): RiskTier {
  if (capabilities === undefined || capabilities.length === 0) return 'high';
  if (capabilities.includes('irreversible')) return 'destructive';
  if (capabilities.some((capability) => HIGH.has(capability))) return 'high';
  return 'low';
}

/** What a screen shows of a server's risk (every string is ours or a capability name). */
export interface RiskSummary {
  readonly tier: RiskTier;
  /** As declared, sorted; absent when undeclared. */
  readonly capabilities?: readonly ToolCapability[];
  /**
   * Whether its calls run one at a time, side by side when their paths differ, or always side by
   * side (`parallel`: a server declared only `["read"]` that sets no `batching`: reads commute).
   */
  readonly batching: 'serialized' | 'path_scoped' | 'parallel';
  /** In words, e.g. `low (declared: read)` or `high (capabilities not declared)`. */
  readonly text: string;
}

/** Whether the declared capabilities are `read` alone. */
function onlyReads(capabilities: readonly string[] | undefined): boolean {
  return (
    capabilities !== undefined && capabilities.length > 0 && capabilities.every((c) => c === 'read')
  );
}

/**
 * A server's risk, for consent screens, `status()` and approval questions. @internal
 *
 * @param config - The server's configuration.
 */
export function riskOf(config: ServerConfig): RiskSummary {
  // Asked on every call: a configuration is never changed in place (a reload makes a new one).
  const known = summaries.get(config);
  if (known !== undefined) return known;
  // Shared by every caller (status rows a host keeps too): frozen.
  const summary = summarize(config);
  if (summary.capabilities !== undefined) Object.freeze(summary.capabilities);
  Object.freeze(summary);
  summaries.set(config, summary);
  return summary;
}

const summaries = new WeakMap<ServerConfig, RiskSummary>();

function summarize(config: ServerConfig): RiskSummary {
  const declared = config.def.capabilities;
  const capabilities = declared === undefined ? undefined : [...new Set(declared)].sort();
  const tier = riskTier(capabilities);
  const batching = config.def.batching ?? (onlyReads(capabilities) ? 'parallel' : 'serialized');
  const why =
    capabilities === undefined
      ? 'capabilities not declared'
      : `declared: ${capabilities.join(', ')}`;
  return {
    tier,
    ...(capabilities === undefined ? {} : { capabilities }),
    batching,
    text: `${tier} (${why})`,
  };
}

/**
 * Why `mode` runs a call of `tier` without asking, or `undefined` when it asks. A destructive
 * call always asks. @internal
 */
export function modeRuns(mode: ApprovalMode, tier: RiskTier): string | undefined {
  if (tier === 'destructive' || mode === 'ask') return undefined;
  if (tier === 'low')
    return `approval mode "${mode}" runs low-risk (read-only) calls without asking`;
  if (mode === 'trusted') return 'approval mode "trusted" runs high-risk calls without asking';
  return undefined;
}

/**
 * What a consent screen should say about a declaration that lowers the risk: a project's file
 * declaring its own server harmless (so a mode would run its calls unasked), and declarations
 * its definition contradicts. @internal
 *
 * @param config - The server's configuration.
 * @param byRepository - Whether a repository's file declares it (the consent screen knows).
 */
export function riskWarnings(config: ServerConfig, byRepository: boolean): string[] {
  const declared = config.def.capabilities;
  if (declared === undefined) return [];
  const warnings: string[] = [];
  const tier = riskTier(declared);
  if (byRepository && tier === 'low') {
    warnings.push(
      'the repository declares this server read-only ("capabilities"): with approval mode ' +
        '"balanced" or "trusted" its calls run without asking — allow it only if you believe that',
    );
  } else if (byRepository && tier === 'high' && !declared.includes('shell')) {
    warnings.push(
      `the repository declares what this server can do (${[...declared].sort().join(', ')}): ` +
        'with approval mode "trusted" its calls run without asking',
    );
  }
  if (config.kind === 'local' && config.def.network && !declared.includes('network')) {
    warnings.push('it is not declared "network" but its sandbox lets it use the network');
  }
  if (config.kind === 'local' && config.def.writePaths.length > 0 && !declared.includes('write')) {
    warnings.push('it is not declared "write" but may write the folders in "writePaths"');
  }
  return warnings;
}
