import { parseTemplate } from './expand-env.js';
import type { VariableSyntax } from './hosts/host.js';
import { ImportNoteCode, type ImportClient, type ImportNote } from './import-types.js';
import { looksSecretName, looksSecretValue } from './looks-secret.js';
import { quoteText } from './quote-text.js';
import type { ServerSource } from './server-types.js';

/** What the conversion of one server's values needs to know. @internal */
export interface ValueContext {
  readonly client: ImportClient;
  readonly scope: ServerSource;
  /** The client's name for messages ("VS Code"). */
  readonly clientName: string;
  /** How the client writes variables. */
  readonly variables: VariableSyntax;
  readonly platform: string;
  /** VS Code `inputs`: id → the variable name it becomes. */
  readonly inputs: ReadonlyMap<string, string>;
  readonly root: string;
  readonly rootBasename: string;
  readonly userHome: string;
  readonly separator: string;
}

/** A converted value, or why the server cannot be imported. @internal */
export type Converted =
  | { readonly ok: true; readonly value: string; readonly notes: readonly ImportNote[] }
  | { readonly ok: false; readonly note: ImportNote };

const VAR = /^[A-Za-z_][A-Za-z0-9_]*$/;
const WITH_DEFAULT = /^([A-Za-z_][A-Za-z0-9_]*):-/;
const ENV_VAR = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;
const INPUT = /^input:(.*)$/s;

// Names a VS Code input must not become, because they already mean something to every program.
const SYSTEM_VARIABLES: ReadonlySet<string> = new Set([
  'PATH',
  'HOME',
  'USER',
  'USERNAME',
  'LOGNAME',
  'SHELL',
  'PWD',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'TERM',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'SYSTEMROOT',
]);

/**
 * The environment variable a VS Code input id stands for: upper-cased, other characters as `_`
 * (`api-key` → `API_KEY`), with `INPUT_` in front when it would start with a digit, be empty,
 * or be a variable every program reads (`PATH`, `HOME`…). @internal
 */
export function inputVariable(id: string): string {
  const name = id
    .slice(0, 64)
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (name === '' || /^[0-9]/.test(name) || SYSTEM_VARIABLES.has(name)) return `INPUT_${name}`;
  return name;
}

type Placeholder =
  | { readonly kind: 'var'; readonly name: string; readonly hadDefault: boolean }
  | { readonly kind: 'input'; readonly id: string }
  | { readonly kind: 'path'; readonly what: 'root' | 'rootName' | 'home'; readonly value: string }
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'unknown' };

/** Syntaxes that fill in VS Code's predefined variables (`${workspaceFolder}`…). */
const EDITORS: ReadonlySet<VariableSyntax> = new Set(['editor', 'editor-inputs']);

function editorVariable(inner: string, ctx: ValueContext): Placeholder | undefined {
  switch (inner) {
    case 'workspaceFolder':
    case 'workspaceRoot':
      return { kind: 'path', what: 'root', value: ctx.root };
    case 'workspaceFolderBasename':
      return { kind: 'path', what: 'rootName', value: ctx.rootBasename };
    case 'userHome':
      return { kind: 'path', what: 'home', value: ctx.userHome };
    case 'pathSeparator':
    case '/':
      return { kind: 'text', value: ctx.separator };
    default:
      return undefined;
  }
}

function classify(inner: string, ctx: ValueContext): Placeholder {
  const editor = EDITORS.has(ctx.variables) ? editorVariable(inner, ctx) : undefined;
  if (editor !== undefined) return editor;
  if (VAR.test(inner)) return { kind: 'var', name: inner, hadDefault: false };
  const withDefault = WITH_DEFAULT.exec(inner);
  if (withDefault !== null) return { kind: 'var', name: withDefault[1] ?? '', hadDefault: true };
  const env = ENV_VAR.exec(inner);
  if (env !== null) return { kind: 'var', name: env[1] ?? '', hadDefault: false };
  // Only VS Code has inputs; written elsewhere, `${input:…}` is a copy that means nothing there.
  const input = ctx.variables === 'editor-inputs' ? INPUT.exec(inner) : null;
  if (input !== null) return { kind: 'input', id: input[1] ?? '' };
  return { kind: 'unknown' };
}

/** VS Code's placeholders that ask the user or run a command, whatever file they are in. */
const VSCODE_ACTION = /^(?:input|command):/;

const PATH_WORDS = {
  root: "the project's root folder",
  rootName: "the name of the project's root folder",
  home: 'your home folder',
} as const;

function pathNote(
  field: string,
  placeholder: string,
  what: keyof typeof PATH_WORDS,
  ctx: ValueContext,
): ImportNote {
  const userFileNote =
    what !== 'home' && ctx.scope === 'user'
      ? ": this is a user server, so it is now tied to this project's folder"
      : '';
  return {
    code: ImportNoteCode.PATH_SUBSTITUTED,
    field,
    message:
      `${quoteText(field)} used ${placeholder}, which ${ctx.clientName} fills in; it is now ` +
      `written out as ${PATH_WORDS[what]}${userFileNote}`,
  };
}

/** Text from a file for a message, unless it looks like a secret (then only that it is there). */
export function quoteUnlessSecret(text: string): string {
  return looksSecretValue(text) ? 'a value that looks secret' : quoteText(text);
}

function unknownNote(field: string, inner: string, ctx: ValueContext): ImportNote {
  if (VSCODE_ACTION.test(inner)) {
    const action = inner.startsWith('input:') ? 'asks you for' : 'runs as a command';
    return {
      code: ImportNoteCode.UNKNOWN_PLACEHOLDER,
      field,
      message:
        `${quoteText(field)} uses ${quoteUnlessSecret(`\${${inner}}`)}, which VS Code ${action}; ` +
        'Garuda neither asks nor runs anything for a value, and would pass it on as text: the ' +
        'server was not imported; write the value itself and add the server with `garuda-mcp add`',
    };
  }
  return {
    code: ImportNoteCode.UNKNOWN_PLACEHOLDER,
    field,
    message:
      `${quoteText(field)} uses ${quoteUnlessSecret(`\${${inner}}`)}, which ${ctx.clientName} fills in ` +
      'and Garuda has no equivalent for: write the value itself and add the server with ' +
      '`garuda-mcp add`',
  };
}

/** One piece of a value, as a client's placeholder syntax splits it. */
type Piece =
  /** Plain text (a `$` that starts no placeholder included). */
  | { readonly kind: 'text'; readonly text: string }
  /** `${…}`, with what is between the braces. */
  | { readonly kind: 'braced'; readonly written: string; readonly inner: string }
  /** Gemini CLI's `$NAME`. */
  | { readonly kind: 'bare'; readonly written: string; readonly name: string }
  /** A `${` without its `}`: the rest of the value, as written. */
  | { readonly kind: 'unclosed'; readonly text: string };

/** The pieces of a value, in order: the one scan both converters below share. */
function* pieces(value: string, ctx: ValueContext): Generator<Piece> {
  let i = 0;
  while (i < value.length) {
    const dollar = value.indexOf('$', i);
    if (dollar === -1) {
      yield { kind: 'text', text: value.slice(i) };
      return;
    }
    if (dollar > i) yield { kind: 'text', text: value.slice(i, dollar) };
    if (value.charAt(dollar + 1) === '{') {
      const end = value.indexOf('}', dollar + 2);
      if (end === -1) {
        yield { kind: 'unclosed', text: value.slice(dollar) };
        return;
      }
      yield {
        kind: 'braced',
        written: value.slice(dollar, end + 1),
        inner: value.slice(dollar + 2, end),
      };
      i = end + 1;
      continue;
    }
    // Gemini CLI also expands $NAME; elsewhere it is plain text, as it is in Garuda.
    const bare =
      ctx.variables === 'gemini'
        ? /^[A-Za-z_][A-Za-z0-9_]*/.exec(value.slice(dollar + 1, dollar + 257))
        : null;
    if (bare !== null) {
      yield { kind: 'bare', written: `$${bare[0]}`, name: bare[0] };
      i = dollar + 1 + bare[0].length;
    } else {
      yield { kind: 'text', text: '$' };
      i = dollar + 1;
    }
  }
}

/**
 * Converts an env or header value to Garuda's `${NAME}` syntax: `${NAME}` stays, `${env:NAME}`
 * and `${NAME:-default}` (the default dropped) become `${NAME}`, Gemini's `$NAME` too; a VS
 * Code `${input:id}` becomes `${ID}`; `${workspaceFolder}` and the like are written out.
 * Then anything `expandEnv` would refuse makes the server not importable. @internal
 */
export function convertTemplate(value: string, field: string, ctx: ValueContext): Converted {
  const notes: ImportNote[] = [];
  let out = '';
  for (const piece of pieces(value, ctx)) {
    if (piece.kind === 'text' || piece.kind === 'unclosed') {
      out += piece.text; // an unclosed `${`: parseTemplate below says what is wrong
      continue;
    }
    if (piece.kind === 'bare') {
      out += `\${${piece.name}}`;
      continue;
    }
    const { inner } = piece;
    const placeholder = classify(inner, ctx);
    switch (placeholder.kind) {
      case 'var':
        out += `\${${placeholder.name}}`;
        if (placeholder.hadDefault) {
          notes.push({
            code: ImportNoteCode.DEFAULT_DROPPED,
            field,
            variable: placeholder.name,
            message:
              `${quoteText(field)} had a default for \${${placeholder.name}}, which Garuda does ` +
              `not have: set ${placeholder.name}, or the value is empty`,
          });
        }
        break;
      case 'input': {
        const variable = ctx.inputs.get(placeholder.id) ?? inputVariable(placeholder.id);
        out += `\${${variable}}`;
        notes.push({
          code: ImportNoteCode.INPUT_REPLACED,
          field,
          variable,
          message:
            `${quoteText(field)} took the VS Code input ${quoteUnlessSecret(placeholder.id)}, which VS ` +
            `Code asks you for; Garuda does not ask: set ${variable} in the environment instead`,
        });
        break;
      }
      case 'path':
        out += placeholder.value;
        notes.push(pathNote(field, `\${${inner}}`, placeholder.what, ctx));
        break;
      case 'text':
        out += placeholder.value;
        break;
      case 'unknown':
        return { ok: false, note: unknownNote(field, inner, ctx) };
    }
  }
  const template = parseTemplate(out);
  if (!template.ok) {
    return {
      ok: false,
      note: {
        code: ImportNoteCode.VALUE_REFUSED,
        field,
        message: `${quoteText(field)} ${template.reason}`,
      },
    };
  }
  return { ok: true, value: out, notes };
}

/** VS Code's other predefined variables, which have no meaning outside an editor window. */
const EDITOR_ONLY: ReadonlySet<string> = new Set([
  'file',
  'fileWorkspaceFolder',
  'relativeFile',
  'relativeFileDirname',
  'fileBasename',
  'fileBasenameNoExtension',
  'fileExtname',
  'fileDirname',
  'fileDirnameBasename',
  'cwd',
  'lineNumber',
  'columnNumber',
  'selectedText',
  'execPath',
  'defaultBuildTask',
]);

/**
 * What `${inner}` is in a field the client expands but Garuda passes as written, by the
 * client's own syntax: Claude Code `${NAME}` and `${NAME:-default}`; Gemini CLI `${NAME}` (and
 * `$NAME`, handled by the caller); VS Code and Cursor `${env:NAME}`, their predefined variables
 * and (VS Code) `${input:id}`. Claude Desktop and Codex expand nothing. Anything else is text
 * the client passed as it is, and so does Garuda.
 */
function plainPlaceholder(inner: string, ctx: ValueContext): Placeholder | { kind: 'literal' } {
  const literal = { kind: 'literal' } as const;
  // A prompt or a command in VS Code, never plain text, in whichever client's file it is.
  if (
    VSCODE_ACTION.test(inner) &&
    !(ctx.variables === 'editor-inputs' && inner.startsWith('input:'))
  ) {
    return { kind: 'unknown' };
  }
  switch (ctx.variables) {
    case 'claude': {
      if (VAR.test(inner)) return { kind: 'var', name: inner, hadDefault: false };
      const withDefault = WITH_DEFAULT.exec(inner);
      return withDefault === null
        ? literal
        : { kind: 'var', name: withDefault[1] ?? '', hadDefault: true };
    }
    case 'gemini':
      return VAR.test(inner) ? { kind: 'var', name: inner, hadDefault: false } : literal;
    case 'editor':
    case 'editor-inputs': {
      const editor = editorVariable(inner, ctx);
      if (editor !== undefined) return editor;
      const env = ENV_VAR.exec(inner);
      if (env !== null) return { kind: 'var', name: env[1] ?? '', hadDefault: false };
      const input = ctx.variables === 'editor-inputs' ? INPUT.exec(inner) : null;
      if (input !== null) return { kind: 'input', id: input[1] ?? '' };
      return inner.includes(':') || EDITOR_ONLY.has(inner) ? { kind: 'unknown' } : literal;
    }
    default:
      return literal;
  }
}

function notExpanded(
  field: string,
  placeholder: { kind: 'var'; name: string } | { kind: 'input'; id: string },
  ctx: ValueContext,
): Converted {
  const what =
    placeholder.kind === 'var'
      ? `the variable ${placeholder.name}`
      : `the VS Code input ${quoteUnlessSecret(placeholder.id)}`;
  return {
    ok: false,
    note: {
      code: ImportNoteCode.VARIABLE_NOT_EXPANDED,
      field,
      ...(placeholder.kind === 'var' ? { variable: placeholder.name } : {}),
      message:
        `${quoteText(field)} takes ${what}, which ${ctx.clientName} fills in there; Garuda ` +
        'expands variables only in env and headers, and passes this field as written: if ' +
        'the server can read it from its environment, add it with `garuda-mcp add` and an env entry',
    },
  };
}

/**
 * Converts a value Garuda passes as written (`command`, an argument, `cwd`, `url`): path
 * placeholders are written out, `${HOME}` becomes the home folder; any other variable the client
 * would have expanded makes the server not importable, since nothing here expands it. Text the
 * client itself passed as written (Claude Desktop and Codex expand nothing) stays. @internal
 */
export function convertPlain(value: string, field: string, ctx: ValueContext): Converted {
  const notes: ImportNote[] = [];
  let out = '';
  for (const piece of pieces(value, ctx)) {
    if (piece.kind === 'text' || piece.kind === 'unclosed') {
      out += piece.text;
      continue;
    }
    const { written } = piece;
    const placeholder: Placeholder | { readonly kind: 'literal' } =
      piece.kind === 'braced'
        ? plainPlaceholder(piece.inner, ctx)
        : { kind: 'var', name: piece.name, hadDefault: false };
    const home =
      placeholder.kind === 'var' &&
      !placeholder.hadDefault &&
      (placeholder.name === 'HOME' ||
        (ctx.platform === 'win32' && placeholder.name === 'USERPROFILE'));
    if (home) {
      out += ctx.userHome;
      notes.push(pathNote(field, written, 'home', ctx));
    } else if (placeholder.kind === 'var' || placeholder.kind === 'input') {
      return notExpanded(field, placeholder, ctx);
    } else if (placeholder.kind === 'path') {
      out += placeholder.value;
      notes.push(pathNote(field, written, placeholder.what, ctx));
    } else if (placeholder.kind === 'text') {
      out += placeholder.value;
    } else if (placeholder.kind === 'literal') {
      out += written;
    } else {
      return { ok: false, note: unknownNote(field, written.slice(2, -1), ctx) };
    }
  }
  return { ok: true, value: out, notes };
}

const HARMLESS = /^(?:true|false|yes|no|on|off|0|1|none|null)$/i;
const PATH_LIKE = /^(?:\/|~[/\\]|\.{1,2}[/\\]|[A-Za-z]:[/\\])\S*$/;
const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S+$/;

/**
 * Whether a value holds a `${…}` reference: a `${` with a `}` after it. Two searches rather than
 * a regex, whose search would read the rest of the text again from each of many `${`.
 */
function hasReference(value: string): boolean {
  const open = value.indexOf('${');
  return open >= 0 && value.indexOf('}', open + 2) >= 0;
}

/**
 * Whether a value under this name is a secret written out: a value that looks like a token,
 * or a secret-looking name with a literal value that is not a flag, a path or an address
 * (`${…}` references are not secrets). @internal
 */
export function isWrittenSecret(name: string, value: string): boolean {
  if (looksSecretValue(value)) return true;
  if (!looksSecretName(name)) return false;
  if (hasReference(value)) return false;
  const literal = value.trim();
  return !(
    literal === '' ||
    HARMLESS.test(literal) ||
    PATH_LIKE.test(literal) ||
    URL_LIKE.test(literal)
  );
}

export const FLAG = /^--?([A-Za-z0-9][A-Za-z0-9_.-]*)$/;
export const FLAG_WITH_VALUE = /^--?([A-Za-z0-9][A-Za-z0-9_.-]*)=([\s\S]*)$/;
export const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;

/**
 * Whether `args[index]` holds a secret written out: a token-like value, or the value of a
 * secret-looking option (`--api-key sk-…`, `--token=…`, `API_KEY=…` as docker's `-e` takes it).
 * @internal
 */
export function argIsSecret(args: readonly string[], index: number): boolean {
  const arg = args[index] ?? '';
  if (looksSecretValue(arg)) return true;
  const withValue = FLAG_WITH_VALUE.exec(arg) ?? ASSIGNMENT.exec(arg);
  if (withValue !== null) return isWrittenSecret(withValue[1] ?? '', withValue[2] ?? '');
  const flag = FLAG.exec(index > 0 ? (args[index - 1] ?? '') : '');
  if (flag !== null && !arg.startsWith('-')) return isWrittenSecret(flag[1] ?? '', arg);
  return false;
}

/**
 * Whether a URL carries a secret: a user name or password, a token-looking part, or a query
 * parameter with a secret-looking name (`?api_key=…`). @internal
 */
export function urlIsSecret(url: string): boolean {
  if (looksSecretValue(url)) return true;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL: validation says so, and it quotes nothing that looked secret above.
    return /@/.test(url.split(/[/?#]/, 3).slice(0, 3).join('/'));
  }
  if (parsed.username !== '' || parsed.password !== '') return true;
  for (const [key, value] of parsed.searchParams) {
    if (isWrittenSecret(key, value)) return true;
  }
  return false;
}
