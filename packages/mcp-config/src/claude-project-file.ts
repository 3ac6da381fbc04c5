import { isRecord } from '@garuda/internal';
import { ConfigProblemCode } from './config-problem.js';
import { formatFieldPath, type FieldPath } from './field-path.js';
import { quoteText } from './quote-text.js';
import type { ServerIssue } from './validate-server.js';

/** Another client's project file that `loadConfig` reads in place. */
export interface ImportedProjectFile {
  /** The file, usually `<root>/.mcp.json` (Claude Code's project file). */
  readonly file: string;
  /** Whose shape it has: only Claude Code's (`mcpServers`, Garuda's own fields) for now. */
  readonly client: 'claude';
}

const WITH_DEFAULT = /\$\{[A-Za-z_][A-Za-z0-9_]*:-[^}]*\}/;

function issue(
  path: FieldPath,
  code: ServerIssue['code'],
  prefix: string,
  message: string,
): ServerIssue {
  const field = formatFieldPath(path);
  return { code, path, field, message: `${prefix}${quoteText(field)} ${message}` };
}

/**
 * What Claude Code does with a server of `.mcp.json` that Garuda would do differently, as
 * issues that leave the server out: `${…}` in `command`, `args`, `cwd` or `url` (Claude Code
 * expands them there, Garuda passes them as written) and `${NAME:-default}` (no defaults here).
 * Everything else is checked by the ordinary validation. @internal
 */
export function claudeFileIssues(name: string, value: unknown): ServerIssue[] {
  if (!isRecord(value)) return [];
  const prefix = `server ${quoteText(name)}: `;
  const issues: ServerIssue[] = [];
  const plain = (path: FieldPath, v: unknown): void => {
    if (typeof v === 'string' && v.includes('${')) {
      issues.push(
        issue(
          path,
          ConfigProblemCode.INVALID_VALUE,
          prefix,
          'takes a ${…} variable, which Claude Code expands there; Garuda expands variables only ' +
            'in env and headers and would pass it as written, so the server was not loaded: ' +
            'add it to .garuda/mcp.json with the value written out, or with an env entry',
        ),
      );
    }
  };
  for (const key of ['command', 'cwd', 'url'])
    plain([key], Object.hasOwn(value, key) ? value[key] : undefined);
  const args = Object.hasOwn(value, 'args') ? value.args : undefined;
  if (Array.isArray(args)) args.forEach((arg, i) => plain(['args', i], arg));
  for (const kind of ['env', 'headers']) {
    const values = Object.hasOwn(value, kind) ? value[kind] : undefined;
    if (!isRecord(values)) continue;
    for (const [key, v] of Object.entries(values)) {
      if (typeof v === 'string' && WITH_DEFAULT.test(v)) {
        issues.push(
          issue(
            [kind, key],
            ConfigProblemCode.BAD_REFERENCE,
            prefix,
            'uses ${NAME:-default}, a default Garuda does not have: write ${NAME} and set NAME ' +
              '(in .garuda/mcp.json, so Claude Code keeps its own file)',
          ),
        );
      }
    }
  }
  return issues;
}
