import { commandLine, type ServerConfig, type ServerDef } from '@garuda/mcp-config';
import { serverHomeOf } from '@garuda/mcp-manager';
import { cleanLine } from '@garuda/mcp-sanitize';
import { findServer, readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { ExitCode } from '../../exit-codes.js';
import { maskValue } from '../../secrets.js';
import { enabledLabel } from '../../shared/enabled-here.js';

/** A definition as `get --json` shows it: secret-looking values written out replaced. */
function maskedDef(def: ServerDef): { def: ServerDef; masked: string[] } {
  const masked: string[] = [];
  const mask = (field: 'env' | 'headers', values: Readonly<Record<string, string>>) =>
    Object.fromEntries(
      Object.entries(values).map(([name, value]) => {
        const shown = maskValue(name, value);
        if (shown.masked) masked.push(`${field}.${name}`);
        return [name, shown.text];
      }),
    );
  if (def.kind === 'local') return { def: { ...def, env: mask('env', def.env) }, masked };
  return { def: { ...def, headers: mask('headers', def.headers) }, masked };
}

/** A local server's own home folder (see `serverHomesDir`); none for a remote one. */
function homeOf(ctx: CommandContext, server: ServerConfig): string | undefined {
  if (server.kind !== 'local') return undefined;
  try {
    return serverHomeOf(ctx.globals.serverHomesDir, server, ctx.globals.root);
  } catch {
    return undefined; // a name no folder can have
  }
}

/**
 * `garuda-mcp get <name>`: one server as configured, from whichever file has it, without
 * starting it: its command line or URL, env and headers (a secret written out in the file is
 * masked; a `${NAME}` is shown as written), folder, network, write and read paths, time limit,
 * OAuth settings, whether it is enabled and a local server's home folder. `--json`: `{ name,
 * source, file, kind, commandLine, def, masked, home }`. Exit 2 for a name no file has, 3 when its entry is invalid.
 */
export async function getCommand(ctx: CommandContext, name: string): Promise<number> {
  const config = await readConfig(ctx);
  const server = findServer(ctx, config, name);
  const { def, masked } = maskedDef(server.def);
  const home = homeOf(ctx, server);
  if (ctx.globals.json) {
    ctx.output.out(
      JSON.stringify(
        {
          name: server.name,
          source: server.source,
          file: server.file,
          kind: server.kind,
          commandLine: commandLine(server.def),
          def,
          masked,
          ...(home === undefined ? {} : { home }),
        },
        null,
        2,
      ),
    );
    return ExitCode.OK;
  }
  const c = ctx.output.colour;
  const lines: string[] = [
    `${c.bold(server.name)}: a ${server.kind === 'local' ? 'local server (stdio)' : 'remote server (Streamable HTTP)'} in ${server.source === 'user' ? 'your file' : 'the project file'} ${server.file}`,
  ];
  // Values from a file are cleaned for the terminal (a project's file is anyone's text).
  const field = (label: string, value: string) =>
    lines.push(`  ${c.dim(label.padEnd(8))} ${cleanLine(value)}`);
  if (def.kind === 'local') {
    field('command', commandLine(def));
    for (const [key, value] of Object.entries(def.env)) field('env', `${key}=${value}`);
    field('folder', def.cwd ?? '(the project root)');
    field('network', def.network ? 'yes' : 'no');
    field('writes', def.writePaths.length > 0 ? def.writePaths.join(', ') : '(only the project)');
    if (def.readPaths.length > 0) field('reads', def.readPaths.join(', '));
    if (home !== undefined) field('home', `${home} (its own, writable, kept)`);
  } else {
    field('url', commandLine(def));
    for (const [key, value] of Object.entries(def.headers)) field('header', `${key}: ${value}`);
    const oauth = def.oauth;
    if (oauth !== undefined) {
      const parts = [
        ...(oauth.clientId === undefined ? [] : [`client id ${oauth.clientId}`]),
        ...(oauth.clientMetadataUrl === undefined
          ? []
          : [`client metadata ${oauth.clientMetadataUrl}`]),
        ...(oauth.scopes === undefined || oauth.scopes.length === 0
          ? []
          : [`scopes ${oauth.scopes.join(' ')}`]),
      ];
      field('oauth', parts.join(', ') || '(defaults)');
    }
  }
  field('timeout', `${def.timeoutMs} ms`);
  if (def.startTimeoutMs !== undefined) field('start', `within ${def.startTimeoutMs} ms`);
  field('enabled', enabledLabel(ctx, server));
  ctx.output.out(lines.join('\n'));
  if (masked.length > 0) {
    ctx.output.out(
      c.dim(
        `(${masked.join(', ')}: written out in the file and hidden here; \${NAME} keeps a secret out of the file.)`,
      ),
    );
  }
  return ExitCode.OK;
}
