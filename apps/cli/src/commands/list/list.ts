import { commandLine, type ServerConfig } from '@garuda/mcp-config';
import { configProblems, noServersLine, readConfig, unreadFiles } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { ExitCode } from '../../exit-codes.js';
import { table } from '../../format.js';
import { enabledHere, enabledLabel } from '../../shared/enabled-here.js';

/** `stdio` or `http`: how the client talks to the server. */
function transport(server: ServerConfig): string {
  return server.kind === 'local' ? 'stdio' : 'http';
}

/**
 * `garuda-mcp list`: the configured servers of both files, without starting any: name,
 * source, transport, enabled, and the command line or URL. Entries that did not load are named
 * below the table (their problems were told first). `--json`: `{ servers, problems }`. Exit 0,
 * or 3 when a config file has problems.
 */
export async function listCommand(ctx: CommandContext): Promise<number> {
  const config = await readConfig(ctx);
  const { servers, problems } = config;
  const c = ctx.output.colour;
  if (ctx.globals.json) {
    ctx.output.out(
      JSON.stringify(
        {
          servers: servers.map((s) => ({
            name: s.name,
            source: s.source,
            file: s.file,
            kind: s.kind,
            enabled: enabledHere(ctx, s),
            ...(enabledHere(ctx, s) === s.def.enabled ? {} : { enabledInFile: s.def.enabled }),
            commandLine: commandLine(s.def),
          })),
          problems,
        },
        null,
        2,
      ),
    );
  } else if (servers.length === 0) {
    ctx.output.out(noServersLine(problems));
  } else {
    ctx.output.out(
      table(
        ['NAME', 'SOURCE', 'TYPE', 'ENABLED', 'COMMAND OR URL'],
        servers.map((s) => [
          s.name,
          s.source,
          transport(s),
          enabledLabel(ctx, s),
          commandLine(s.def),
        ]),
        (column, cell) => {
          if (column === 0) return c.bold(cell);
          if (column === 3 && cell.startsWith('no')) return c.yellow(cell);
          return cell;
        },
      ),
    );
    const missing = [
      ...new Map(
        problems.flatMap((p) =>
          p.server !== undefined && !servers.some((s) => s.name === p.server && s.file === p.file)
            ? [[`${p.file}\0${p.server}`, p] as const]
            : [],
        ),
      ).values(),
    ];
    if (missing.length > 0 || unreadFiles(problems).length > 0) {
      const names = missing.map((p) => `${p.server ?? ''} (${p.file})`);
      const unread = unreadFiles(problems).map((file) => `every server of ${file}`);
      ctx.output.out('');
      ctx.output.out(
        `Not loaded, because of the problems listed above: ${[...names, ...unread].join(', ')}.`,
      );
    }
  }
  return configProblems(problems).length > 0 ? ExitCode.CONFIG : ExitCode.OK;
}
