// What the CLI shows before each question the manager asks: consent, a call's approval, a
// sign-in. Every string in them was cleaned by the manager already; these only lay it out.
import {
  sandboxText,
  valueSourceText,
  type CallApprovalRequest,
  type ConsentRequest,
  type PackageSummary,
  type SignInRequest,
} from '@garuda/mcp-manager';
import { callPreviewText } from '@garuda/mcp-tools';
import { pad } from './format.js';
import type { Colours } from './output.js';

/** What the consent screen adds to the risk line about how calls of the server overlap. */
const BATCHING_WORDS = {
  serialized: '',
  path_scoped: ', calls on different paths run side by side',
  parallel: ', its calls run side by side (it only reads)',
} as const;

/** The consent screen: every field and warning the manager gives, nothing left out. */
/** `@scope/pkg 1.2.3 (npx, into its own cache)`, or what runs when no version is pinned. */
function packageLine(entry: PackageSummary): string {
  const version = entry.version === undefined ? '' : ` ${entry.version}`;
  if (entry.pin === 'local') return `${entry.name} (${entry.runner}, from this machine)`;
  if (entry.pin === 'unpinned')
    return `${entry.name}${version} (${entry.runner}: no pinned version, whatever the registry has when it starts)`;
  return `${entry.name}${version} (${entry.runner}, downloaded into its own cache)`;
}

export function formatConsent(request: ConsentRequest, c: Colours): string {
  const lines: string[] = [];
  if (request.kind === 'tools') {
    lines.push(
      c.bold(
        `The tools of MCP server "${request.server}" changed since you trusted them (${request.source} file).`,
      ),
    );
  } else {
    lines.push(
      c.bold(
        `The ${request.source === 'project' ? 'project' : 'user'} file asks to ${request.url === undefined ? 'start' : 'connect to'} MCP server "${request.server}".`,
      ),
    );
  }
  const field = (name: string, value: string) => lines.push(`  ${c.dim(pad(name, 9))} ${value}`);
  field('file', request.file);
  if (request.commandLine !== undefined) field('command', request.commandLine);
  if (request.cwd !== undefined) field('folder', request.cwd);
  if (request.url !== undefined) field('url', `${request.url}  (data leaves this machine)`);
  field('sandbox', sandboxText(request.sandbox));
  field('network', request.network ? 'yes' : 'no');
  field('risk', `${request.risk.text}${BATCHING_WORDS[request.risk.batching]}`);
  if (request.writePaths.length > 0) field('writes', request.writePaths.join(', '));
  if (request.home !== undefined) field('home', `${request.home}  (its own, writable, kept)`);
  if ((request.readPaths ?? []).length > 0) field('reads', (request.readPaths ?? []).join(', '));
  for (const entry of request.packages ?? []) field('package', packageLine(entry));
  for (const value of request.env) field('env', `${value.name} = ${valueSourceText(value.source)}`);
  for (const value of request.headers ?? []) {
    field('header', `${value.name}: ${valueSourceText(value.source)}`);
  }
  const changes = request.toolChanges;
  if (changes !== undefined) {
    for (const tool of changes.added)
      lines.push(`  ${c.green('+ added')}   ${tool.name}: ${tool.description}`);
    for (const name of changes.removed) lines.push(`  ${c.red('- removed')} ${name}`);
    for (const tool of changes.changed) {
      const what = [tool.descriptionChanged && 'description', tool.schemaChanged && 'input schema']
        .filter(Boolean)
        .join(' and ');
      lines.push(
        `  ${c.yellow('~ changed')} ${tool.name}${what ? ` (${what})` : ''}: ${tool.description}`,
      );
    }
    if (!changes.detailed)
      lines.push(c.dim('  (the old pin cannot say which tools changed: all are listed)'));
  }
  for (const warning of request.warnings) lines.push(`  ${c.yellow('warning:')} ${warning}`);
  return lines.join('\n');
}

/** What a tool call will do, before the approval question: the standard wording, in colour. */
export function formatCallPreview(request: CallApprovalRequest, c: Colours): string {
  return [
    callPreviewText(request, { title: c.bold, label: c.dim }),
    `  ${c.dim('risk     ')} ${request.risk.text}`,
    `  ${c.dim('asks     ')} ${request.why}`,
  ].join('\n');
}

/** The sign-in question's context: why, server, scopes, where the browser goes and comes back. */
export function formatSignIn(request: SignInRequest, c: Colours): string {
  const why =
    request.reason === 'more-access'
      ? `MCP server "${request.server}" asks for more access than your sign-in gives${
          request.addedScopes.length > 0 ? ` (${request.addedScopes.join(', ')})` : ''
        }: signing in again asks for it.`
      : request.reason === 'expired'
        ? `Your sign-in to MCP server "${request.server}" no longer works: it needs a new one.`
        : `MCP server "${request.server}" needs a sign-in.`;
  return [
    c.bold(why),
    `  ${c.dim('server   ')} ${request.url}`,
    ...(request.scopes.length > 0 ? [`  ${c.dim('scopes   ')} ${request.scopes.join(' ')}`] : []),
    `  ${c.dim('sign-in  ')} ${request.signInOrigin}  (your browser opens this page)`,
    `  ${c.dim('callback ')} ${request.callback}  (this computer; it receives the result)`,
  ].join('\n');
}
