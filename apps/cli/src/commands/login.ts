import { readConfig } from '../cli-config.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, usageError } from '../exit-codes.js';
import { cliPrompter, createManager, withManager } from '../open-manager.js';

async function remoteServer(ctx: CommandContext, name: string) {
  const { servers } = await readConfig(ctx);
  const server = servers.find((s) => s.name === name);
  if (server === undefined) {
    throw usageError(`No MCP server named "${name}" is configured (see garuda-mcp status).`);
  }
  if (server.kind !== 'remote') {
    throw usageError(`MCP server "${name}" is a local command; only remote servers sign in.`);
  }
  return server;
}

/**
 * `garuda-mcp login <server>`: connects to one remote server and signs in when it asks (the
 * browser opens: `--browser` chooses the program; the address is printed too, and on a terminal
 * an address pasted from a browser on another machine is accepted). Exit 0 when connected, 4
 * otherwise.
 */
export async function loginCommand(ctx: CommandContext, name: string): Promise<number> {
  await remoteServer(ctx, name);
  return withManager(
    ctx,
    { only: [name], signIn: true, progress: `Connecting to ${name}` },
    (mcp) => {
      const row = mcp.status().find((r) => r.name === name);
      if (row?.state !== 'connected') {
        throw new CliError(
          `Could not sign in to MCP server "${name}": ${row?.detail ?? row?.state ?? 'unknown state'}.`,
          ExitCode.SERVER,
        );
      }
      const signedIn = row.network.endsWith('signed in') && !row.network.endsWith('no sign-in');
      if (ctx.globals.json) {
        ctx.output.out(JSON.stringify({ server: name, connected: true, signedIn }, null, 2));
      } else {
        ctx.output.out(
          signedIn
            ? `Signed in to MCP server ${ctx.output.colour.bold(name)} (${row.tools} tools).`
            : `MCP server ${ctx.output.colour.bold(name)} connected without a sign-in (it asked for none).`,
        );
      }
      return Promise.resolve(ExitCode.OK);
    },
  );
}

/**
 * `garuda-mcp logout <server>`: removes the stored sign-in and revokes its tokens where the
 * authorization server offers revocation. Nothing is started. Exit 0 (a failed revocation is
 * reported; the local sign-in is gone either way).
 */
export async function logoutCommand(ctx: CommandContext, name: string): Promise<number> {
  const mcp = createManager(ctx, cliPrompter(ctx));
  try {
    const result = await mcp.logout(name, { signal: ctx.signal });
    if (ctx.globals.json) {
      ctx.output.out(JSON.stringify({ server: name, ...result }, null, 2));
    } else if (result.removed === 0) {
      ctx.output.out(`No stored sign-in for MCP server ${ctx.output.colour.bold(name)}.`);
    } else {
      ctx.output.out(`Signed out of MCP server ${ctx.output.colour.bold(name)}.`);
      if (!result.ok) {
        ctx.output.err(
          ctx.output.errColour.yellow(
            'warning: the authorization server did not confirm the revocation; the tokens may stay valid until they expire.',
          ),
        );
      }
    }
    return ExitCode.OK;
  } finally {
    await mcp.close();
  }
}
