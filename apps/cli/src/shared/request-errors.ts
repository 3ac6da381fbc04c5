import {
  CallDeclinedError,
  McpManagerError,
  McpManagerErrorCode,
  SignInRequiredError,
  type McpManager,
} from '@garuda/mcp-manager';
import { notConnected } from '../cli-config.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, usageError } from '../exit-codes.js';
import { loginCommandLine } from '../format.js';
import type { CliPrompter } from '../prompter.js';

/** Exit 4 (with the reason) unless `server` is connected. */
export function mustBeConnected(mcp: McpManager, prompter: CliPrompter, server: string): void {
  const row = mcp.status().find((r) => r.name === server);
  // A `ready` server (--start lazy) starts on the request itself.
  if (row?.state !== 'connected' && row?.state !== 'ready') {
    throw notConnected(server, row, prompter.declined);
  }
}

/** The JSON arguments of a call or a prompt: an object, or nothing. */
export function parseJsonObject(
  text: string | undefined,
  what: string,
  example: string,
): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(
      `The ${what} are not valid JSON (${error instanceof Error ? error.message : 'parse error'}). ` +
        `Quote them for your shell, e.g. '${example}'.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError(`The ${what} must be a JSON object, e.g. '${example}'.`);
  }
  return value as Record<string, unknown>;
}

/**
 * What a failed request to a server ends the command with: `what` names the request for the
 * sign-in message (`The call of mcp__fx__echo`, `Reading the resource …`). Exit 130 when
 * interrupted, 2 for arguments the manager refused, 4 for the rest (declined, the server failed,
 * a sign-in is needed — with the `garuda-mcp login` line that gives it). Anything else is
 * rethrown.
 */
export function requestFailure(
  ctx: CommandContext,
  prompter: CliPrompter,
  error: unknown,
  what: string,
): never {
  if (!McpManagerError.isInstance(error)) throw error;
  if (error.code === McpManagerErrorCode.CALL_CANCELLED && ctx.signal.aborted) {
    throw new CliError('Interrupted.', ExitCode.INTERRUPTED);
  }
  if (
    error.code === McpManagerErrorCode.INVALID_ARGUMENTS ||
    error.code === McpManagerErrorCode.INVALID_OPTIONS
  ) {
    throw usageError(error.message);
  }
  if (CallDeclinedError.isInstance(error) && error.rule !== undefined) {
    throw new CliError(
      `The call is denied by your rule ${JSON.stringify(error.rule)}; nothing ran.`,
      ExitCode.SERVER,
    );
  }
  if (error.code === McpManagerErrorCode.CALL_DECLINED) {
    throw new CliError('The call was declined; nothing ran.', ExitCode.SERVER);
  }
  if (SignInRequiredError.isInstance(error)) {
    const unasked = prompter.declined.some(
      (q) => q.kind === 'sign-in' && q.server === error.server,
    );
    const scopes = error.reason === 'more-access' ? error.addedScopes : [];
    const needs =
      error.reason === 'more-access'
        ? `more access to MCP server "${error.server}"${scopes.length > 0 ? ` (it wants the ${scopes.length === 1 ? 'scope' : 'scopes'} ${scopes.join(', ')})` : ''}`
        : `a new sign-in to MCP server "${error.server}"`;
    throw new CliError(
      `${
        unasked
          ? `${what} needs ${needs}, and nobody could be asked to sign in (no terminal).`
          : error.message
      }\nSign in for it with: ${loginCommandLine(error.server, scopes)}`,
      ExitCode.SERVER,
    );
  }
  throw new CliError(error.message, ExitCode.SERVER);
}
