import {
  InvalidOptionsError,
  type McpManager,
  ServerNotConnectedError,
  SignInRequiredError,
} from '@garuda/mcp-manager';
import path from 'node:path';
import { AuthStore } from '@garuda/mcp-oauth';
import { findServer, notConnected, readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../exit-codes.js';
import { plural, rowDetail } from '../../format.js';
import { cliPrompter, createManager, withManager } from '../../open-manager.js';

async function remoteServer(ctx: CommandContext, name: string) {
  const server = findServer(ctx, await readConfig(ctx), name);
  if (server.kind !== 'remote') {
    throw usageError(`MCP server "${name}" is a local command; only remote servers sign in.`);
  }
  return server;
}

/** `mcp.signIn(name, { scopes })` with the CLI's errors; `false` when the server is not allowed yet. */
async function signInWith(
  ctx: CommandContext,
  mcp: McpManager,
  name: string,
  scopes: readonly string[],
): Promise<boolean> {
  try {
    await ctx.output.progress(`Signing in to ${name}`, () =>
      mcp.signIn(name, { scopes, signal: ctx.signal }),
    );
    return true;
  } catch (error) {
    if (ctx.signal.aborted) throw new CliError('Interrupted.', ExitCode.INTERRUPTED);
    if (ServerNotConnectedError.isInstance(error)) return false;
    if (InvalidOptionsError.isInstance(error)) throw usageError(`${error.message}.`);
    if (SignInRequiredError.isInstance(error)) throw new CliError(error.message, ExitCode.SERVER);
    throw error;
  }
}

/**
 * `garuda-mcp login <server> [--scope <scope>]…`: connects to one remote server and signs in
 * when it asks (the browser opens: `--browser` chooses the program; the address is printed too,
 * and on a terminal an address pasted from a browser on another machine is accepted). With
 * `--scope`, it signs in again first, asking for those scopes too (a tool that needs more
 * access). Exit 0 when connected, 4 otherwise.
 */
export async function loginCommand(
  ctx: CommandContext,
  name: string,
  scopes: readonly string[] = [],
): Promise<number> {
  await remoteServer(ctx, name);
  let signedInFirst = false;
  if (scopes.length > 0) {
    // A user's (or an already allowed project's) server signs in before it connects, so the
    // browser opens once; one not allowed yet is asked about by the start below, then signs in.
    const mcp = createManager(ctx, cliPrompter(ctx, { signIn: true }));
    try {
      signedInFirst = await signInWith(ctx, mcp, name, scopes);
    } finally {
      await mcp.close();
    }
  }
  return withManager(
    ctx,
    { only: [name], signIn: true, progress: `Connecting to ${name}` },
    async (mcp, prompter) => {
      if (scopes.length > 0 && !signedInFirst) {
        if (mcp.status().find((r) => r.name === name)?.state !== 'connected') {
          throw notConnected(
            name,
            mcp.status().find((r) => r.name === name),
            prompter.declined,
          );
        }
        await signInWith(ctx, mcp, name, scopes);
      }
      const row = mcp.status().find((r) => r.name === name);
      if (row?.state !== 'connected') {
        const detail = row === undefined ? undefined : rowDetail(row, prompter.declined);
        throw new CliError(
          `Could not sign in to MCP server "${name}": ${detail ?? row?.state ?? 'unknown state'}.`,
          ExitCode.SERVER,
        );
      }
      const signedIn = row.network.kind === 'remote' && row.network.signedIn;
      if (ctx.globals.json) {
        ctx.output.out(JSON.stringify({ server: name, connected: true, signedIn }, null, 2));
      } else {
        ctx.output.out(
          signedIn
            ? `Signed in to MCP server ${ctx.output.colour.bold(name)} (${plural(row.tools, 'tool')}).`
            : `MCP server ${ctx.output.colour.bold(name)} connected without a sign-in (it asked for none).`,
        );
        if (signedIn) ctx.output.out(await tokensLine(ctx, mcp, name));
      }
      return ExitCode.OK;
    },
  );
}

/** Where the tokens of `name` are now, and why, in one sentence. */
async function tokensLine(ctx: CommandContext, mcp: McpManager, name: string): Promise<string> {
  const info = await mcp.tokenStorage();
  if (info.mode === 'session') {
    return 'The tokens are kept for this run only (--store session): nothing was saved.';
  }
  const file = path.join(ctx.globals.home, 'mcp-auth.json');
  // The entry says where its secrets are: an earlier sign-in may have put them elsewhere.
  const store = new AuthStore(file, { env: ctx.io.env });
  try {
    const entries = (await store.list()).filter((entry) => entry.name === name && entry.signedIn);
    const where = entries[0]?.storage ?? info.mode;
    const earlier =
      where === info.mode
        ? ''
        : ` They were stored there by an earlier sign-in: run garuda-mcp logout ${name}, then login again, to move them.`;
    if (where === 'keyring') {
      return `The tokens are in the OS keychain${info.mode === 'keyring' ? ` (${info.reason})` : ''}.${earlier}`;
    }
    const why = info.requested === 'auto' && info.mode === 'file' ? `; ${info.reason}` : '';
    return `The tokens are in ${file} (mode 0600${why}).${earlier}`;
  } finally {
    store.close();
  }
}
