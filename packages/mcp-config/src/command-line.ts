import { neutralizeTags } from '@garuda/mcp-sanitize';
import { invalidArgument } from './errors.js';
import { isHttp } from './is-http.js';
import type { ServerDef, ServerEntry } from './server-types.js';

// Words made only of these stay bare: none of them means anything to a POSIX shell.
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

// Characters a terminal would hide, reorder, or act on: every control, format (bidi, zero-width,
// tag characters), surrogate, private-use and unassigned code point, and every separator other
// than the plain space (no-break and other Unicode spaces, line and paragraph separators)...
const HIDDEN_CLASS = /[\p{C}\p{Z}]/u;

// ...plus variation selectors and the letters and marks that render as nothing.
function isInvisible(cp: number): boolean {
  return (
    cp === 0x034f ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    (cp >= 0x180b && cp <= 0x180f) ||
    cp === 0x2800 ||
    cp === 0x3164 ||
    cp === 0xffa0 ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xe0100 && cp <= 0xe01ef)
  );
}

/** Whether one code point (a string of one code point) must be shown as an escape. */
function reveals(ch: string): boolean {
  return HIDDEN_CLASS.test(ch) || isInvisible(ch.codePointAt(0) ?? 0);
}

function escapeCodePoint(ch: string, force = false): string {
  if (force) return hexEscape(ch);
  switch (ch) {
    case '\n':
      return '\\n';
    case '\t':
      return '\\t';
    case '\r':
      return '\\r';
    case '\\':
      return '\\\\';
    case "'":
      return "\\'";
    case ' ':
      return ' ';
    default:
      return reveals(ch) ? hexEscape(ch) : ch;
  }
}

function hexEscape(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  // Fixed widths, so a hex digit that follows cannot be read as part of the escape.
  if (cp < 0x80) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/**
 * The code unit offsets of the brackets that open one of our tags (`</garuda_note`, a fullwidth
 * `＜mcp_result`…): `neutralizeTags` changes exactly those characters and keeps the length.
 */
function tagBrackets(word: string): Set<number> | undefined {
  const neutral = neutralizeTags(word);
  if (neutral === word) return undefined;
  const at = new Set<number>();
  for (let i = 0; i < word.length; i++) if (word[i] !== neutral[i]) at.add(i);
  return at;
}

function hasHidden(word: string): boolean {
  for (const ch of word) if (ch !== ' ' && reveals(ch)) return true;
  return false;
}

/**
 * One shell word: bare, 'single-quoted', or $'ANSI-C quoted' when it holds hidden characters or
 * opens one of our tags (whose bracket is then written as an escape such as `\x3c`, so the line
 * cannot close or fake a block on a screen that a model reads, and still runs when pasted).
 */
function quoteWord(word: string, first: boolean): string {
  if (word === '') return "''";
  // A first word with "=" would read as a variable assignment, not as the program.
  if (PLAIN.test(word) && !(first && word.includes('='))) return word;
  const brackets = tagBrackets(word);
  if (brackets !== undefined || hasHidden(word)) {
    let out = "$'";
    let at = 0;
    for (const ch of word) {
      out += escapeCodePoint(ch, brackets?.has(at) === true);
      at += ch.length;
    }
    return `${out}'`;
  }
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** Hidden characters (and the bracket of one of our tags) of a URL shown as escapes. */
function revealUrl(text: string): string {
  const brackets = tagBrackets(text);
  let out = '';
  let at = 0;
  for (const ch of text) {
    out +=
      ch === ' '
        ? '\\x20'
        : brackets?.has(at) === true || reveals(ch)
          ? escapeCodePoint(ch, brackets?.has(at) === true)
          : ch;
    at += ch.length;
  }
  return out;
}

/**
 * The command line of a server, on one line, for a consent screen or a status list.
 *
 * A local server's command and args are POSIX-shell quoted: plain words stay bare, others go in
 * single quotes (`'\''` for a quote inside), and a word holding a control, format (bidi,
 * zero-width), other invisible character or a line break is written as an ANSI-C string such as
 * `$'evil\u202eexe'` or `$'a\nb'`, so the screen shows the character instead of hiding or
 * obeying it. A word that opens one of the tags `neutralizeTags` of `@garuda/mcp-sanitize`
 * guards (`</garuda_note>`, `＜mcp_result`…) is written the same way with that bracket as an
 * escape (`$'\x3c/garuda_note>'`), so the line never carries a live tag. Pasted into bash, the
 * line runs the same program with the same arguments.
 *
 * A remote server gives its URL in the form it will be used (`new URL(url).href`: host names in
 * punycode, so look-alike letters show), with any remaining hidden character escaped.
 *
 * @param def - A `ServerDef` from `loadConfig`, or a `ServerEntry` as written.
 * @returns One line without control, format or invisible characters.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` when `def` has no `command` or `url` string, or an
 *   argument is not a string (a programming error).
 * @example
 * ```ts
 * commandLine({ command: 'npx', args: ['-y', 'my server', "it's", ''] });
 * // npx -y 'my server' 'it'\''s' ''
 * commandLine({ command: 'run', args: ['a\nb', 'x\u202ey'] });
 * // run $'a\nb' $'x\u202ey'
 * ```
 */
export function commandLine(def: ServerDef | ServerEntry): string {
  if (typeof def !== 'object' || def === null) {
    throw invalidArgument('commandLine: def must be a server definition object');
  }
  if (isHttp(def)) {
    if (typeof def.url !== 'string') {
      throw invalidArgument('commandLine: url must be a string');
    }
    let shown = def.url;
    try {
      shown = new URL(def.url).href;
    } catch {
      // Not a URL (a definition that was never validated): shown as written, escaped.
    }
    return revealUrl(shown);
  }
  const { command, args = [] } = def as { command?: unknown; args?: unknown };
  if (typeof command !== 'string') {
    throw invalidArgument('commandLine: def needs a command (local) or a url (remote) string');
  }
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
    throw invalidArgument('commandLine: args must be a list of strings');
  }
  return [command, ...(args as string[])].map((word, i) => quoteWord(word, i === 0)).join(' ');
}
