// The standard wording of the manager's structured status fields: the one place a sandbox or a
// server's network is put in words, for hosts that want the same words as `garuda-mcp`.
import type { SandboxInfo } from '@garuda/mcp-transport';
import { oneLine } from '../common/text.js';
import type { NetworkStatus, SandboxStatus, ValueOrigin } from '../types.js';

/**
 * A detected sandbox as a status field (the reason cleaned to one line). @internal
 *
 * @param sandbox - What `detectSandbox` found; `undefined` before it ran.
 * @returns The structured status.
 */
export function sandboxStatus(sandbox: SandboxInfo | undefined): SandboxStatus {
  if (sandbox === undefined) return { kind: 'unknown' };
  if (sandbox.kind === 'bwrap' || sandbox.kind === 'seatbelt') return { kind: sandbox.kind };
  return { kind: 'none', reason: oneLine(sandbox.reason ?? 'none is available on this system') };
}

/**
 * The sandbox in words, as `status` and the consent screen of `garuda-mcp` show it.
 *
 * @param sandbox - A `StatusRow.sandbox` or `ConsentRequest.sandbox`.
 * @returns `bubblewrap`, `seatbelt`, `no OS sandbox: <reason>`, `remote server` or
 *   `not checked yet`.
 * @example
 * ```ts
 * for (const row of mcp.status()) ui.cell(sandboxText(row.sandbox));
 * ```
 */
export function sandboxText(sandbox: SandboxStatus): string {
  switch (sandbox.kind) {
    case 'bwrap':
      return 'bubblewrap';
    case 'seatbelt':
      return 'seatbelt';
    case 'none':
      return `no OS sandbox: ${sandbox.reason}`;
    case 'remote':
      return 'remote server';
    default:
      return 'not checked yet';
  }
}

/**
 * A server's network in words, as `garuda-mcp status` shows it.
 *
 * @param network - A `StatusRow.network`.
 * @returns `on` or `off` for a local server; `remote <url> · signed in` or
 *   `remote <url> · no sign-in`.
 * @example
 * ```ts
 * for (const row of mcp.status()) ui.cell(networkText(row.network));
 * ```
 */
export function networkText(network: NetworkStatus): string {
  if (network.kind === 'local') return network.allowed ? 'on' : 'off';
  return `remote ${network.url} · ${network.signedIn ? 'signed in' : 'no sign-in'}`;
}

/**
 * Where a value comes from, in words, as the consent screen of `garuda-mcp` shows it.
 *
 * @param origin - A `ValueSource.source`.
 * @returns `literal`, or the variables, e.g. `${GITHUB_TOKEN}, ${NOPE} (not set)`.
 * @example
 * ```ts
 * for (const value of request.env) ui.line(`${value.name} = ${valueSourceText(value.source)}`);
 * ```
 */
export function valueSourceText(origin: ValueOrigin): string {
  if (origin.kind === 'literal') return 'literal';
  return origin.names
    .map((name) => `\${${name}}${origin.missing.includes(name) ? ' (not set)' : ''}`)
    .join(', ');
}
