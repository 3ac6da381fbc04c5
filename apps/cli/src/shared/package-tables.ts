// The packages' tables that help and flag checks need, copied here so that `--help`, `list` and
// every flag check run without loading the packages they come from (loading @garuda/mcp-gateway
// alone costs about ten times a bare Node start). package-tables.test.ts keeps each copy equal to
// the package's own table; change them together.
import type { ImportClient, ToolExposure } from '@garuda/mcp-config';
import type { GatewayApprovals } from '@garuda/mcp-gateway';
import type { ApprovalMode } from '@garuda/mcp-manager';
import type { TokenStorage } from '@garuda/mcp-oauth';

/** `APPROVAL_MODES` of @garuda/mcp-manager: each approval mode, described. */
export const APPROVAL_MODES: Readonly<Record<ApprovalMode, string>> = Object.freeze({
  ask: 'every call asks',
  balanced: 'calls of servers declared read-only run without asking',
  trusted: 'only calls of servers declared irreversible ask',
});

/** `TOOL_EXPOSURES` of @garuda/mcp-config: how tools reach a model, described. */
export const TOOL_EXPOSURES: Readonly<Record<ToolExposure, string>> = Object.freeze({
  direct: 'every tool, offered at once',
  search: 'held back; the model finds them with mcp_tool_search',
  proxy: 'held back; the model calls them by name with mcp_tool_call',
  auto: 'direct, or search when the catalog is large; never proxy',
});

/** `GATEWAY_APPROVALS` of @garuda/mcp-gateway: how `serve` approves calls, described. */
export const GATEWAY_APPROVALS: Readonly<Record<GatewayApprovals, string>> = Object.freeze({
  elicit: 'a call that must ask is asked in the host when it can, else as rules',
  rules: 'only what was allowed beforehand runs; the rest is refused',
  host: 'every call runs; the host asks its user for each one',
});

/** `IMPORT_CLIENTS` of @garuda/mcp-config: the hosts `import --from` reads, in reading order. */
export const IMPORT_CLIENTS: readonly ImportClient[] = Object.freeze([
  'claude',
  'claude-desktop',
  'cursor',
  'vscode',
  'gemini',
  'codex',
]);

/** The `installName` of each of @garuda/mcp-config's `HOSTS`, by `installOrder`. */
export const INSTALL_HOSTS: readonly string[] = Object.freeze([
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'gemini',
  'codex',
]);

/** `TOKEN_STORAGES` of @garuda/mcp-oauth: where sign-ins may be kept. */
export const TOKEN_STORAGES: readonly TokenStorage[] = Object.freeze([
  'file',
  'keyring',
  'session',
  'auto',
]);
