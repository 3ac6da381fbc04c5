import { pinLabel } from '../offer/prompt-pins.js';
import path from 'node:path';
import {
  commandLine,
  type EnvSource,
  type ResolvedValue,
  type ServerConfig,
  type ServerSource,
} from '@garuda/mcp-config';
import { cleanLine, neutralizeTags } from '@garuda/mcp-sanitize';
import { InvalidPolicyError, hiddenPathOf, type SandboxInfo } from '@garuda/mcp-transport';
import type { ToolDiff } from '@garuda/mcp-trust';
import { commandWarnings, WarningRank, type RankedWarning } from './command-warnings.js';
import { containerLaunch, type ContainerLaunch } from '../launch/container-launch.js';
import { packageLaunch } from '../launch/package-launch.js';
import { isWithin } from '../launch/paths.js';
import { serverHomeOf } from '../launch/server-home.js';
import { looksSecret, referencedNames } from './secret-names.js';
import { capLine, isRecord } from '@garuda/internal';
import { sandboxStatus, sandboxText } from '../status/wording.js';
import { riskOf, riskWarnings } from '../calls/risk-tier.js';
import type {
  ConsentRequest,
  PackageSummary,
  ToolChangeSummary,
  ToolSummary,
  ValueSource,
} from '../types.js';
import { quoteText } from '../common/text.js';

/** The longest tool description on a consent screen, in code points. */
export const MAX_CONSENT_DESCRIPTION_CHARS = 500;

/** The longest tool, variable or header name on a consent screen, in code points. */
export const MAX_CONSENT_NAME_CHARS = 200;

/** What a consent request needs to know about this machine and this session. */
export interface ConsentContext {
  /** What `detectSandbox()` of `@garuda/mcp-transport` found. */
  readonly sandbox: SandboxInfo;
  /** The project folder (absolute). */
  readonly root: string;
  /** The user's home folder (absolute). */
  readonly home: string;
  /** Garuda's own folder (absolute): no read path may show it, nor a container mount it. */
  readonly garudaHome: string;
  /** Temp folders servers may write (absolute), e.g. `os.tmpdir()`. */
  readonly tempDirs: readonly string[];
  /** The manager's `serverHomesDir`: a local server's screen names its own home. */
  readonly serverHomesDir?: string;
}

/** What changed in a server's tools, for {@link toolsConsentRequest}. */
export interface ToolsChange {
  /** `diffTools(pinned, tools)` of `@garuda/mcp-trust`. */
  readonly diff: ToolDiff;
  /** The tools the server lists now, as it listed them (for their new descriptions). */
  readonly tools: readonly unknown[];
  /** False when the old pin cannot say which tools changed (every tool is listed as changed). */
  readonly detailed: boolean;
}

/** A local server's own home, as its screen names it (when the manager's folder is known). */
function ownHome(
  server: { readonly name: string; readonly source: ServerSource },
  context: ConsentContext,
): { readonly home?: string } {
  if (context.serverHomesDir === undefined) return {};
  try {
    return { home: shown(serverHomeOf(context.serverHomesDir, server, context.root)) };
  } catch {
    return {}; // a name no folder can have
  }
}

/**
 * A value from a file (or this machine) as one line of a consent screen: cleaned, and its
 * `<garuda_note`/`<mcp_result` tags neutralised, as for text a model reads.
 */
function shown(text: string): string {
  return neutralizeTags(cleanLine(text));
}

function varList(names: readonly string[], missing: readonly string[] = []): string {
  return names.map((name) => `\${${name}}${missing.includes(name) ? ' (not set)' : ''}`).join(', ');
}

/** Each env variable or header, and where its value comes from; never the value itself. */
function valueSources(
  written: Readonly<Record<string, string>>,
  resolved: Readonly<Record<string, ResolvedValue>> | undefined,
): ValueSource[] {
  return Object.keys(written).map((name) => {
    const source: EnvSource | undefined = resolved?.[name]?.source;
    const names =
      source === undefined
        ? referencedNames(written[name] ?? '')
        : source.kind === 'vars'
          ? source.names
          : [];
    const missing = source?.kind === 'vars' ? source.missing : [];
    const clean = (list: readonly string[]) =>
      list.map((entry) => capLine(shown(entry), MAX_CONSENT_NAME_CHARS));
    return {
      name: capLine(shown(name), MAX_CONSENT_NAME_CHARS),
      source:
        names.length === 0
          ? { kind: 'literal' }
          : {
              kind: 'vars',
              names: clean(names),
              missing: clean(missing.filter((entry) => names.includes(entry))),
            },
    };
  });
}

function envWarnings(env: Readonly<Record<string, string>>): RankedWarning[] {
  const warnings: RankedWarning[] = [];
  for (const [name, value] of Object.entries(env)) {
    const secret = referencedNames(value).filter(looksSecret);
    if (secret.length > 0) {
      warnings.push({
        rank: WarningRank.secret,
        text: `the environment variable ${quoteText(name)} takes ${varList(secret)}, which looks like a secret: the server can read it`,
      });
    } else if (looksSecret(name)) {
      warnings.push({
        rank: WarningRank.secret,
        text: `the environment variable ${quoteText(name)} looks like it holds a secret: the server can read it`,
      });
    }
  }
  return warnings;
}

/** Headers that carry credentials whatever their value is called. */
const CREDENTIAL_HEADER = /^(?:authorization|proxy-authorization|cookie)$/i;

function headerWarnings(
  headers: Readonly<Record<string, string>>,
  origin: string,
): RankedWarning[] {
  const warnings: RankedWarning[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const vars = referencedNames(value);
    const secret = vars.filter(looksSecret);
    let text: string | undefined;
    if (secret.length > 0) {
      text = `the header ${quoteText(name)} takes ${varList(secret)}, which looks like a secret: it is sent to ${origin}`;
    } else if (vars.length > 0 && (CREDENTIAL_HEADER.test(name) || looksSecret(name))) {
      text = `the header ${quoteText(name)} sends ${varList(vars)} from your environment to ${origin}`;
    } else if (CREDENTIAL_HEADER.test(name) || looksSecret(name)) {
      text = `the header ${quoteText(name)} looks like it carries a credential: it is sent to ${origin}`;
    }
    if (text !== undefined) warnings.push({ rank: WarningRank.secret, text });
  }
  return warnings;
}

/** A write path as the sandbox will see it: `~` is the home folder, relative is from the root. */
function resolveWritePath(written: string, context: ConsentContext): string {
  if (written === '~') return path.resolve(context.home);
  if (written.startsWith('~/') || written.startsWith(`~${path.sep}`)) {
    return path.resolve(context.home, written.slice(2));
  }
  return path.resolve(context.root, written);
}

function writePathWarnings(
  writePaths: readonly string[],
  context: ConsentContext,
): RankedWarning[] {
  const root = path.resolve(context.root);
  const home = path.resolve(context.home);
  const temps = context.tempDirs.map((dir) => path.resolve(dir));
  const warnings: RankedWarning[] = [];
  for (const written of writePaths) {
    const resolved = resolveWritePath(written, context);
    if (isWithin(resolved, root) || temps.some((dir) => isWithin(resolved, dir))) continue;
    const what =
      resolved === path.parse(resolved).root
        ? ' (the whole file system)'
        : resolved === home
          ? ' (your home folder)'
          : isWithin(home, resolved)
            ? ' (it holds your home folder)'
            : isWithin(resolved, home)
              ? ' (inside your home folder)'
              : '';
    const shown =
      cleanLine(written) === resolved
        ? quoteText(written, 200)
        : `${quoteText(written, 200)}, which is ${quoteText(resolved, 200)}`;
    warnings.push({
      rank: WarningRank.writePath,
      text: `it may write outside the project and temp folders: ${shown}${what}`,
    });
  }
  return warnings;
}

/**
 * Read paths that show the server something the sandbox hides: a credential path (it gets it,
 * read-only), or Garuda's own folder or a socket place (the sandbox refuses them: it will not
 * start). A read path elsewhere, or one that only holds hidden paths (`~`), shows nothing hidden.
 */
function readPathWarnings(readPaths: readonly string[], context: ConsentContext): RankedWarning[] {
  const warnings: RankedWarning[] = [];
  for (const written of readPaths) {
    const resolved = resolveWritePath(written, context);
    let match;
    try {
      match = hiddenPathOf(resolved, context);
    } catch (error) {
      // A NUL character, which no config that loaded holds: the start says so.
      if (InvalidPolicyError.isInstance(error)) continue;
      throw error;
    }
    if (match === undefined) continue;
    const shownPath =
      cleanLine(written) === resolved
        ? quoteText(written, 200)
        : `${quoteText(written, 200)}, which is ${quoteText(resolved, 200)}`;
    const within =
      resolved === match.path ? '' : ` (in ${quoteText(`~/${match.name ?? ''}`, 200)})`;
    warnings.push({
      rank: WarningRank.readPath,
      text:
        match.kind === 'credential'
          ? `it may read credentials the sandbox hides from servers: ${shownPath}${within}, read-only`
          : `it asks to read ${match.kind === 'garudaHome' ? "Garuda's own folder (its tokens and trust)" : 'a place whose sockets lead out of the sandbox'}: ${shownPath}; the sandbox refuses that, so it will not start`,
    });
  }
  return warnings;
}

/** `name:tag` or `name@sha256:…` as a name and a version. */
function imageParts(image: string): { name: string; version?: string } {
  const at = image.indexOf('@');
  if (at > 0) return { name: image.slice(0, at), version: image.slice(at + 1) };
  const colon = image.lastIndexOf(':');
  return colon > image.lastIndexOf('/')
    ? { name: image.slice(0, colon), version: image.slice(colon + 1) }
    : { name: image };
}

/** The packages a runner on the command line downloads, or a container's image, for the screen. */
function packagesOf(
  argv: readonly string[],
  container: ContainerLaunch | undefined,
): { packages?: PackageSummary[] } {
  if (container?.image !== undefined) {
    const { name, version } = imageParts(container.image);
    return {
      packages: [
        {
          runner: `${container.engine} run`,
          name: capLine(shown(name), MAX_CONSENT_NAME_CHARS),
          ...(version === undefined
            ? {}
            : { version: capLine(shown(version), MAX_CONSENT_NAME_CHARS) }),
          pin: container.pin,
        },
      ],
    };
  }
  const launch = packageLaunch(argv);
  if (launch === undefined) return {};
  return {
    packages: launch.packages.map((entry) => ({
      runner: shown(launch.runner),
      name: capLine(shown(entry.name), MAX_CONSENT_NAME_CHARS),
      ...(entry.version === undefined
        ? {}
        : { version: capLine(shown(entry.version), MAX_CONSENT_NAME_CHARS) }),
      pin: entry.pin,
    })),
  };
}

/** What a container launch deserves on the screen: why it would not start, and what isolates it. */
function containerWarnings(container: ContainerLaunch): RankedWarning[] {
  const label = quoteText(`${container.engine} run`);
  const warnings: RankedWarning[] = container.problems.map((problem) => ({
    rank: WarningRank.sandbox,
    text: `it will not start: ${problem}`,
  }));
  const mounts = container.mounts.map(
    (mount) => `${quoteText(mount.path, 200)}${mount.readOnly ? ' (read-only)' : ''}`,
  );
  warnings.push({
    rank: WarningRank.privilege,
    text:
      `it runs in a container (${label}): the engine, running as root, isolates it; the ` +
      `sandbox only lets its command reach the engine${mounts.length > 0 ? `. It mounts ${mounts.join(', ')}` : ''}`,
  });
  if (container.image !== undefined && container.pin === 'unpinned') {
    warnings.push({
      rank: WarningRank.unpinned,
      text: `${label} downloads and runs an image: ${quoteText(container.image)} has no pinned tag — pin a version tag or a digest (@sha256:…)`,
    });
  }
  return warnings;
}

/** One line each, most serious first, each once. */
function finish(warnings: readonly RankedWarning[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const { text } of [...warnings].sort((a, b) => a.rank - b.rank)) {
    const line = shown(text);
    if (seen.has(line)) continue;
    seen.add(line);
    out.push(line);
  }
  return out;
}

/**
 * The question to ask before a server from a file starts (or, for a remote server, before it is
 * contacted): everything that decides what it can do, and plain-language warnings.
 *
 * A local server shows its full command line (`commandLine()` of `@garuda/mcp-config`, hidden
 * characters revealed as escapes), working folder, sandbox (structured: `sandboxText` words it),
 * network access, every env variable with where its value comes
 * from (`literal` or the `${NAME}`s it takes; never the value), its write paths and its read
 * paths (when it has some). A remote server shows its URL and every header the same way,
 * `sandbox: { kind: 'remote' }` and `network: true`. Every field from the file passes `cleanLine`, so a line break or an escape
 * in a value cannot add a fake line to the screen, and has its `<garuda_note`/`<mcp_result`
 * tags neutralised (the command line keeps a copyable form: such a bracket is an escape there).
 *
 * Warnings, most serious first: no OS sandbox; (remote) data leaves this machine; `sudo` or
 * `doas`; a shell command line (`sh -c`, `bash -c`, `cmd /c`, `powershell -c`, inline code
 * such as `node -e`, also behind `env` or a path such as `/bin/sh`); a pipe into a shell;
 * `curl` or `wget`; a package runner (`npx`, `uvx`, `pnpm dlx`, `yarn dlx`, `bunx`, `pipx run`)
 * with no pinned version; `rm -rf` in any flag order; write paths outside the project and temp
 * folders (after resolving `..` and `~`; the home folder and `/` are named as such); read
 * paths that show it a credential path the sandbox hides (`~/.kube`), or ask for Garuda's own
 * folder or a socket place (refused: it will not start); env variables and headers whose name
 * looks secret (`KEY`, `TOKEN`, `SECRET`, `PASS`, `CRED`) or
 * whose value takes such a `${NAME}`; network access.
 *
 * @param server - A server from `loadConfig()`.
 * @param context - The sandbox found, the project root, the home folder, Garuda's folder and the
 *   temp folders.
 * @returns The request for `Prompter.consent`, with `kind: 'server'`.
 * @throws InvalidArgumentError (from `@garuda/mcp-config`'s `commandLine`) only for a server
 *   that did not come from `loadConfig` (no command or url string): a programming error.
 * @example
 * ```ts
 * const request = serverConsentRequest(server, { sandbox: await detectSandbox(), root, home, tempDirs: [os.tmpdir()] });
 * const answer = await prompter.consent(request, signal);
 * ```
 */
export function serverConsentRequest(
  server: ServerConfig,
  context: ConsentContext,
): ConsentRequest {
  const base = {
    kind: 'server' as const,
    server: shown(server.name),
    source: server.source,
    file: shown(server.file),
    risk: riskOf(server),
  };
  const risky = riskWarnings(server, server.source === 'project').map((text) => ({
    rank: WarningRank.privilege,
    text,
  }));
  if (server.kind === 'remote') {
    // commandLine writes a tag's bracket as an escape already, so the URL stays as it is used.
    const url = shown(commandLine(server.def));
    let origin = url;
    try {
      origin = shown(new URL(server.def.url).origin);
    } catch {
      // Never validated: the URL as shown.
    }
    return {
      ...base,
      sandbox: { kind: 'remote' },
      network: true,
      env: [],
      writePaths: [],
      url,
      headers: valueSources(server.def.headers, server.headers),
      warnings: finish([
        {
          rank: WarningRank.remote,
          text: `data leaves this machine: tool calls, their arguments and their results go to ${origin}`,
        },
        ...headerWarnings(server.def.headers, origin),
        ...risky,
      ]),
    };
  }
  const { def } = server;
  const warnings: RankedWarning[] = [];
  if (context.sandbox.kind === 'none') {
    warnings.push({
      rank: WarningRank.sandbox,
      text: `${sandboxText(sandboxStatus(context.sandbox))} — this server runs with your full user permissions`,
    });
  }
  warnings.push(...commandWarnings([def.command, ...def.args]));
  const container = containerLaunch([def.command, ...def.args], {
    network: def.network,
    root: path.resolve(context.root),
    writable: [context.root, ...def.writePaths].map((p) => resolveWritePath(p, context)),
    userHome: path.resolve(context.home),
    garudaHome: path.resolve(context.garudaHome),
  });
  if (container !== undefined) warnings.push(...containerWarnings(container));
  warnings.push(...writePathWarnings(def.writePaths, context));
  warnings.push(...readPathWarnings(def.readPaths, context));
  warnings.push(...envWarnings(def.env));
  warnings.push(...risky);
  if (def.network) {
    warnings.push({
      rank: WarningRank.network,
      text: 'it has network access: it can send what it reads to any address',
    });
  }
  return {
    ...base,
    // Copyable: commandLine writes a tag's bracket as an escape (`$'\x3c/garuda_note>'`), so
    // neutralising finds nothing left to change.
    commandLine: shown(commandLine(def)),
    ...(def.cwd === undefined ? {} : { cwd: shown(def.cwd) }),
    sandbox: sandboxStatus(context.sandbox),
    network: def.network,
    env: valueSources(def.env, server.env),
    writePaths: def.writePaths.map((written) => shown(written)),
    ...ownHome(server, context),
    ...(def.readPaths.length > 0
      ? { readPaths: def.readPaths.map((written) => shown(written)) }
      : {}),
    ...packagesOf([def.command, ...def.args], container),
    warnings: finish(warnings),
  };
}

function summaryName(name: string): string {
  return capLine(shown(pinLabel(name)), MAX_CONSENT_NAME_CHARS);
}

function consentDescription(description: unknown): string {
  if (typeof description !== 'string') return '';
  return capLine(shown(description), MAX_CONSENT_DESCRIPTION_CHARS);
}

/**
 * The question to ask when a project server's tools changed since they were trusted: the
 * server fields of {@link serverConsentRequest}, `kind: 'tools'`, and `toolChanges` listing
 * added tools and changed tools with their NEW descriptions (cleaned to one line,
 * tag-neutralised, at most {@link MAX_CONSENT_DESCRIPTION_CHARS} characters each) and which part
 * changed, and removed tools by name. The warnings start with a summary of the change.
 *
 * @param server - The server from `loadConfig()`.
 * @param context - As for {@link serverConsentRequest}.
 * @param change - The diff (`diffTools` of `@garuda/mcp-trust`), the new raw tools, and
 *   whether the diff is detailed.
 * @returns The request for `Prompter.consent`, with `kind: 'tools'`.
 * @throws InvalidArgumentError as {@link serverConsentRequest} does (a programming error).
 * @example
 * ```ts
 * const diff = diffTools(entry.toolHashes ?? {}, tools);
 * const request = toolsConsentRequest(server, context, { diff, tools, detailed: entry.toolHashes !== undefined });
 * ```
 */
export function toolsConsentRequest(
  server: ServerConfig,
  context: ConsentContext,
  change: ToolsChange,
): ConsentRequest {
  const request = serverConsentRequest(server, context);
  const byName = new Map<string, Record<string, unknown>>();
  for (const tool of Array.isArray(change.tools) ? (change.tools as unknown[]) : []) {
    if (isRecord(tool) && typeof tool.name === 'string' && !byName.has(tool.name)) {
      byName.set(tool.name, tool);
    }
  }
  const describe = (name: string): ToolSummary => ({
    name: summaryName(name),
    description: consentDescription(byName.get(name)?.description),
  });
  const added = change.diff.added.map(describe);
  const removed = change.diff.removed.map(summaryName);
  const changed: ToolChangeSummary[] = change.diff.changed.map((entry) => ({
    ...describe(entry.tool),
    descriptionChanged: entry.description,
    schemaChanged: entry.schema,
  }));
  const summary = change.detailed
    ? `its tools changed since you trusted them: ${added.length} added, ${removed.length} removed, ${changed.length} changed — read the new descriptions before you allow them`
    : 'its tools changed since you trusted them, and the old record cannot say which: every tool is listed as changed — read the descriptions before you allow them';
  return {
    ...request,
    kind: 'tools',
    warnings: [summary, ...request.warnings],
    toolChanges: { added, removed, changed, detailed: change.detailed },
  };
}
