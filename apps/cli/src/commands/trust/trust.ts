import { pinCounts } from '@garuda/mcp-manager';
import { cleanLine } from '@garuda/mcp-sanitize';
import {
  MCP_GRANT_PREFIX,
  MCP_TRUST_PREFIX,
  mcpGrantKey,
  readToolGrants,
  TrustStore,
  forgetMcpServer,
  mcpTrustKey,
  parseMcpTrustKey,
  readMcpTrustEntry,
} from '@garuda/mcp-trust';
import { cliPaths, configuredNames, readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { didYouMean } from '../../did-you-mean.js';
import { CliError, ExitCode, usageError } from '../../exit-codes.js';
import { pinnedText, table } from '../../format.js';
import { positionalCount } from '../../shared/command.js';
import { TRUST_USAGE } from './usage.js';

function store(ctx: CommandContext): TrustStore {
  return new TrustStore(cliPaths(ctx).trustFile);
}

/** A trust entry's pinned tools, prompts and MCP Apps, counted apart. */
function pinnedOf(hashes: Readonly<Record<string, unknown>> | undefined): {
  pinnedTools: number;
  pinnedPrompts: number;
  pinnedApps: number;
} {
  const { tools, prompts, apps } = pinCounts(Object.keys(hashes ?? {}));
  return { pinnedTools: tools, pinnedPrompts: prompts, pinnedApps: apps };
}

/**
 * `garuda-mcp trust list`: every server whose consent or pins are remembered: where (user, or
 * which project), name, when, how many tools are pinned, and which tools are always allowed.
 */
export async function trustListCommand(ctx: CommandContext): Promise<number> {
  const trust = store(ctx);
  const entries = await trust.entries(MCP_TRUST_PREFIX);
  const grants = new Map(await trust.entries(MCP_GRANT_PREFIX));
  const rows = entries.flatMap(([key, value]) => {
    const parsed = parseMcpTrustKey(key);
    const entry = readMcpTrustEntry(value);
    if (parsed === undefined || entry === undefined) return [];
    return [
      {
        scope: parsed.kind === 'user' ? 'user' : `project ${parsed.root ?? '?'}`,
        name: parsed.name,
        trustedAt: entry.at,
        ...pinnedOf(entry.toolHashes),
        alwaysAllowed: [...readToolGrants(grants.get(mcpGrantKey(key))).keys()].sort(),
        definition: entry.def,
      },
    ];
  });
  if (ctx.globals.json) {
    ctx.output.out(JSON.stringify({ trusted: rows }, null, 2));
  } else if (rows.length === 0) {
    ctx.output.out('No MCP server is remembered.');
  } else {
    ctx.output.out(
      table(
        ['NAME', 'WHERE', 'TRUSTED AT', 'PINNED', 'ALWAYS ALLOWED'],
        rows.map((row) => [
          row.name,
          row.scope,
          row.trustedAt,
          pinnedText({ tools: row.pinnedTools, prompts: row.pinnedPrompts, apps: row.pinnedApps }),
          // Tool names come from servers: one line each, cleaned.
          row.alwaysAllowed.map((tool) => cleanLine(tool)).join(', ') || '-',
        ]),
        (column, cell) => (column === 0 ? ctx.output.colour.bold(cell) : cell),
      ),
    );
  }
  return ExitCode.OK;
}

/**
 * `garuda-mcp trust forget <server>`: forgets the consent, pins and "always allow" grants of
 * `server` for this project and for the user's own file. A project server asks for consent
 * again at its next start. A
 * server no file has any more can be forgotten too; a name neither configured nor remembered
 * is a usage error (exit 2).
 */
export async function trustForgetCommand(ctx: CommandContext, name: string): Promise<number> {
  const config = await readConfig(ctx);
  const trust = store(ctx);
  const forgotten: string[] = [];
  if (
    await forgetMcpServer(trust, mcpTrustKey({ kind: 'project', root: ctx.globals.root }, name))
  ) {
    forgotten.push(`project ${ctx.globals.root}`);
  }
  if (await forgetMcpServer(trust, mcpTrustKey({ kind: 'user' }, name))) forgotten.push('user');
  if (forgotten.length === 0 && !configuredNames(config).includes(name)) {
    // Neither remembered nor configured: a typo, with the names it may have meant.
    const remembered = (await trust.entries(MCP_TRUST_PREFIX)).flatMap(
      ([key]) => parseMcpTrustKey(key)?.name ?? [],
    );
    throw new CliError(
      `Nothing is remembered for MCP server ${JSON.stringify(name)}, and no file configures it.` +
        `${didYouMean(name, [...configuredNames(config), ...remembered])} ` +
        '(garuda-mcp trust list shows what is remembered.)',
      ExitCode.USAGE,
    );
  }
  if (ctx.globals.json) {
    ctx.output.out(JSON.stringify({ server: name, forgotten }, null, 2));
  } else if (forgotten.length === 0) {
    ctx.output.out(`Nothing remembered for MCP server ${ctx.output.colour.bold(name)} here.`);
  } else {
    ctx.output.out(
      `Forgot MCP server ${ctx.output.colour.bold(name)} (${forgotten.join(', ')}): it asks again before its next start.`,
    );
  }
  return ExitCode.OK;
}

/** `garuda-mcp trust list` or `trust forget <server>`. */
export async function trustCommand(ctx: CommandContext, words: readonly string[]): Promise<number> {
  const [sub, ...names] = words;
  if (sub === 'list') {
    positionalCount(names, 0, 0, TRUST_USAGE);
    return trustListCommand(ctx);
  }
  if (sub === 'forget') {
    positionalCount(names, 1, 1, TRUST_USAGE);
    return trustForgetCommand(ctx, names[0] ?? '');
  }
  throw usageError(
    `trust takes list or forget <server>${sub === undefined ? '' : `, not ${JSON.stringify(sub)}`}.${
      sub === undefined ? '' : didYouMean(sub, ['list', 'forget'], (c) => `trust ${c}`)
    }`,
  );
}
