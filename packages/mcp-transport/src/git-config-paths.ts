/**
 * The paths a repository's own `.git/config` names that make git run code or read more config:
 * `core.hooksPath` (husky and friends point it at a folder inside the project) and the `path` of
 * `[include]` / `[includeIf "…"]` sections. When such a path lies inside a writable folder, a
 * server could put a hook or a `core.fsmonitor` command there and have it run outside the
 * sandbox on the user's next git command, so the sandbox keeps them read-only too. @internal
 */
export interface GitConfigPaths {
  /** Every `core.hooksPath` value, in file order (git uses the last one). */
  readonly hooksPaths: readonly string[];
  /** Every `include.path` and `includeIf.<condition>.path` value, in file order. */
  readonly includePaths: readonly string[];
}

/** Reads a value: unquoted text up to a comment, or quoted parts with git's escapes. */
function parseValue(raw: string): string {
  let out = '';
  let quoted = false;
  let pendingSpace = '';
  for (let i = 0; i < raw.length; i += 1) {
    const ch = raw[i] as string;
    if (ch === '\\') {
      const next = raw[i + 1];
      i += 1;
      out += pendingSpace;
      pendingSpace = '';
      if (next === 'n') out += '\n';
      else if (next === 't') out += '\t';
      else if (next === 'b') out = out.slice(0, -1);
      else if (next !== undefined) out += next;
      continue;
    }
    if (ch === '"') {
      quoted = !quoted;
      continue;
    }
    if (!quoted && (ch === '#' || ch === ';')) break;
    if (!quoted && (ch === ' ' || ch === '\t')) {
      // Inner runs of unquoted whitespace count; leading and trailing ones do not.
      if (out !== '') pendingSpace += ch;
      continue;
    }
    out += pendingSpace + ch;
    pendingSpace = '';
  }
  return out;
}

/**
 * Finds `core.hooksPath` and include paths in the text of a git config file. A tolerant,
 * line-based reader of git's INI dialect (sections and keys without regard to case, quoted
 * values, `#`/`;` comments); lines it does not understand are skipped. Values are returned as
 * written (`~/…` and relative paths are resolved by the caller). @internal
 *
 * @param text - The content of a `.git/config` file.
 * @returns The paths found.
 */
export function gitConfigPaths(text: string): GitConfigPaths {
  const hooksPaths: string[] = [];
  const includePaths: string[] = [];
  let section = '';
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.trim();
    if (line.startsWith('[')) {
      const end = line.indexOf(']');
      if (end < 0) {
        section = '';
        continue;
      }
      // `[includeIf "gitdir:~/work/"]` → `includeif`; `[core]` → `core`.
      const header = line.slice(1, end).trim();
      const name = /^[A-Za-z0-9.-]+/.exec(header)?.[0] ?? '';
      section = name.toLowerCase().split('.')[0] ?? '';
      line = line.slice(end + 1).trim();
      if (line === '') continue;
    }
    const match = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (!match) continue;
    const key = (match[1] as string).toLowerCase();
    const raw = match[2];
    if (raw === undefined) continue;
    const value = parseValue(raw);
    if (value === '') continue;
    if (section === 'core' && key === 'hookspath') hooksPaths.push(value);
    if ((section === 'include' || section === 'includeif') && key === 'path')
      includePaths.push(value);
  }
  return { hooksPaths, includePaths };
}
