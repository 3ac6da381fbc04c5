import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { confirm } from '@inquirer/prompts';
import { importSourceFiles, type ImportClient } from '@garuda/mcp-config';
import writeFileAtomic from 'write-file-atomic';
import { findNodeAtLocation, parse, parseTree, type Node, type ParseError } from 'jsonc-parser';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, usageError } from '../exit-codes.js';

/** The hosts `garuda-mcp install` knows, and where and how each keeps its MCP servers. */
const HOSTS = {
  'claude-desktop': { client: 'claude-desktop', key: 'mcpServers', format: 'json' },
  'claude-code': { client: 'claude', key: 'mcpServers', format: 'json' },
  cursor: { client: 'cursor', key: 'mcpServers', format: 'json' },
  vscode: { client: 'vscode', key: 'servers', format: 'json' },
  gemini: { client: 'gemini', key: 'mcpServers', format: 'json' },
  codex: { client: 'codex', key: 'mcp_servers', format: 'toml' },
} as const satisfies Record<string, { client: ImportClient; key: string; format: 'json' | 'toml' }>;

/** A host `garuda-mcp install` can write to. */
export type InstallHost = keyof typeof HOSTS;

/** The hosts, in the order help lists them. */
export const INSTALL_HOSTS = Object.keys(HOSTS) as InstallHost[];

/** The name of the gateway's entry in a host's file. */
const ENTRY_NAME = 'garuda';

/**
 * The command line a host runs: this very Node and this very CLI (hosts such as Claude Desktop
 * start servers with a short PATH, so a bare `garuda-mcp` may not be found), `serve`, and the
 * project root.
 */
function gatewayCommand(root: string): { command: string; args: string[] } {
  const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
  return { command: process.execPath, args: [bin, 'serve', '--root', root] };
}

/** A TOML basic string (the values are paths: quotes, backslashes and controls escaped). */
function tomlString(text: string): string {
  return JSON.stringify(text);
}

/**
 * `garuda-mcp install <host>`: shows the entry it would add to the host's own MCP config (the
 * `serve` command line with this project's root), writes it after a yes (or `--yes`), and keeps
 * every other byte of that file: a JSON file is edited in place (comments and formatting kept),
 * Codex's TOML gets a table appended. An entry that is already there is left alone.
 *
 * @returns 0 when written or already there; 4 when declined.
 */
export async function installCommand(ctx: CommandContext, host: string): Promise<number> {
  if (!(host in HOSTS)) {
    throw usageError(
      `garuda-mcp install takes one of ${INSTALL_HOSTS.join(', ')}, not ${JSON.stringify(host)}.`,
    );
  }
  const { client, key, format } = HOSTS[host as InstallHost];
  const { io, globals, output } = ctx;
  const file = importSourceFiles({
    userHome: io.userHome,
    root: globals.root,
    platform: io.platform ?? process.platform,
    clients: [client],
    scopes: ['user'],
    // The same places `garuda-mcp import` reads.
    ...(io.env.APPDATA === undefined ? {} : { appData: io.env.APPDATA }),
  })[0]?.file;
  if (file === undefined)
    throw new CliError(`No config file is known for ${host}.`, ExitCode.USAGE);
  const { command, args } = gatewayCommand(globals.root);
  const entry: Record<string, unknown> =
    host === 'vscode' ? { type: 'stdio', command, args } : { command, args };

  const before = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new CliError(`Cannot read ${file}: ${error.message}.`, ExitCode.CONFIG);
  });
  let after: string;
  if (format === 'json') {
    const text = before ?? '{}\n';
    const errors: ParseError[] = [];
    const parsed = parse(text, errors, { allowTrailingComma: true }) as unknown;
    if (
      errors.length > 0 ||
      typeof parsed !== 'object' ||
      parsed === null ||
      Array.isArray(parsed)
    ) {
      throw new CliError(
        `${file} is not a JSON object garuda-mcp can edit safely (fix it, or add the entry by hand): nothing was written.`,
        ExitCode.CONFIG,
      );
    }
    const existing = (parsed as Record<string, Record<string, unknown> | undefined>)[key]?.[
      ENTRY_NAME
    ];
    if (JSON.stringify(existing) === JSON.stringify(entry)) {
      output.out(`${host}: the garuda entry is already in ${file}; nothing to do.`);
      return ExitCode.OK;
    }
    try {
      after = withEntry(text, key, ENTRY_NAME, entry);
    } catch (error) {
      throw new CliError(
        `${file} cannot take the entry (${(error as Error).message}): nothing was written.`,
        ExitCode.CONFIG,
      );
    }
  } else {
    const text = before ?? '';
    if (/^\s*\[\s*mcp_servers\s*\.\s*"?garuda"?\s*\]/m.test(text)) {
      output.out(
        `${host}: ${file} already has [mcp_servers.garuda]; garuda-mcp leaves it as it is (edit it by hand to change it).`,
      );
      return ExitCode.OK;
    }
    const table =
      `[mcp_servers.${ENTRY_NAME}]\n` +
      `command = ${tomlString(command)}\n` +
      `args = [${args.map(tomlString).join(', ')}]\n`;
    after = `${text}${text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n'}${table}`;
  }

  output.err(
    `garuda-mcp install ${host} adds this entry to ${file}${before === undefined ? ' (a new file)' : ''}:\n\n` +
      (format === 'json'
        ? `  "${key}": { "${ENTRY_NAME}": ${JSON.stringify(entry)} }`
        : after.slice(after.lastIndexOf('[mcp_servers.')).trimEnd().replace(/^/gm, '  ')) +
      `\n\nThe host then starts garuda-mcp serve for ${globals.root}; every other line of the file stays as it is.`,
  );
  const yes =
    globals.yes ||
    (globals.interactive &&
      (await confirm(
        { message: `Write it to ${file}?`, default: false },
        {
          input: io.stdin,
          output: io.stderr as unknown as NodeJS.WritableStream,
          signal: ctx.signal,
        },
      ).catch(() => false)));
  if (!yes) {
    output.err(
      globals.interactive
        ? 'Nothing was written.'
        : 'Nothing was written: there is no terminal to ask on; pass --yes to write it.',
    );
    return ExitCode.SERVER;
  }
  await writeWhole(file, after);
  output.out(`${host}: added the garuda entry to ${file}. Restart ${host} to use it.`);
  return ExitCode.OK;
}

/**
 * `text` with `"<name>": <value>` in the object under `key` of its root object, every other byte
 * kept: an entry of that name has its value replaced; otherwise the property is inserted after
 * the last one (a trailing comma or comment after it stays where it was), or into an empty
 * object, or `key` is added to the root. Written by hand because jsonc-parser's `modify`
 * reformats the object it inserts into (it moved comments and rewrapped a neighbour's value).
 */
export function withEntry(text: string, key: string, name: string, value: unknown): string {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (root === undefined || root.type !== 'object') throw new Error('not a JSON object');
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = /^\t/m.test(text) ? '\t' : '  ';
  const json = JSON.stringify(value);
  const existing = findNodeAtLocation(root, [key, name]);
  if (existing !== undefined) {
    return text.slice(0, existing.offset) + json + text.slice(existing.offset + existing.length);
  }
  const container = findNodeAtLocation(root, [key]);
  if (container !== undefined && container.type === 'object') {
    return insertProperty(text, container, `${JSON.stringify(name)}: ${json}`, eol, unit);
  }
  if (container !== undefined) throw new Error(`"${key}" is not an object`);
  return insertProperty(
    text,
    root,
    `${JSON.stringify(key)}: { ${JSON.stringify(name)}: ${json} }`,
    eol,
    unit,
  );
}

/** The indentation of the line `offset` is on. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/** Inserts `property` into `object` (a node of `text`), as its last property. */
function insertProperty(text: string, object: Node, property: string, eol: string, unit: string) {
  const last = object.children?.at(-1);
  if (last !== undefined) {
    const end = last.offset + last.length;
    return `${text.slice(0, end)},${eol}${indentAt(text, last.offset)}${property}${text.slice(end)}`;
  }
  // An empty object: `{` … `}`.
  const open = object.offset + 1;
  const outer = indentAt(text, object.offset);
  const close = object.offset + object.length - 1;
  return `${text.slice(0, open)}${eol}${outer}${unit}${property}${eol}${outer}${text.slice(close)}`;
}

/**
 * Replaces `file` with `text` whole (write-file-atomic: a temporary file beside it, flushed, then
 * renamed), with the old file's mode or 0600 for a new one, so the host never reads half a file.
 */
async function writeWhole(file: string, text: string): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const mode = await stat(file).then(
      (s) => s.mode & 0o777,
      () => 0o600,
    );
    await writeFileAtomic(file, text, { mode, fsync: true });
  } catch (error) {
    throw new CliError(`Cannot write ${file}: ${(error as Error).message}.`, ExitCode.CONFIG);
  }
}
