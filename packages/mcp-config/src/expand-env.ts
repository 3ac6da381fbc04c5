import { SERVER_HOME_VARIABLE } from '@garuda/internal';
import { ConfigProblemCode } from './config-problem.js';
import { invalidArgument } from './errors.js';
import { MAX_SERVER_EXPANSION, MAX_TOTAL_EXPANSION, MAX_VALUE_LENGTH } from './limits.js';
import { quoteText } from './quote-text.js';
import type { EnvSource } from './server-types.js';
import { defineOwn } from './plain-object.js';

/** The problem codes {@link expandEnv} can report. */
export type ExpandProblemCode =
  | typeof ConfigProblemCode.VALUE_REJECTED
  | typeof ConfigProblemCode.BAD_REFERENCE
  | typeof ConfigProblemCode.MISSING_VARIABLE
  | typeof ConfigProblemCode.VALUE_TOO_LONG
  | typeof ConfigProblemCode.VALUE_UNSAFE;

/** Something wrong with one value given to {@link expandEnv}. */
export interface ExpandProblem {
  readonly code: ExpandProblemCode;
  /** The key of the value (an env name or a header name), as given. */
  readonly key: string;
  /**
   * What is wrong and what to do, starting with the subject (`env "X" …` or `header "X" …`).
   * It never contains an expanded value.
   */
  readonly message: string;
}

/** Options of {@link expandEnv}. */
export interface ExpandEnvOptions {
  /**
   * What the values are, for messages and checks: `'env'` (default; an expanded value must not
   * contain NUL) or `'header'` (it must not contain NUL, CR or LF either).
   */
  readonly kind?: 'env' | 'header';
}

/** The result of {@link expandEnv}. */
export interface ExpandEnvResult {
  /** The expanded values. Rejected values are left out. Secrets may be in here: never log them. */
  readonly values: Readonly<Record<string, string>>;
  /** Where each value in `values` comes from. */
  readonly sources: Readonly<Record<string, EnvSource>>;
  /** Every variable name that was not set (each once, in order of first use). */
  readonly missing: readonly string[];
  /** What was rejected or missing, one problem per value. */
  readonly problems: readonly ExpandProblem[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A value split into literal text and `${NAME}` references. @internal */
export type TemplatePart = { readonly text: string } | { readonly name: string };

/** The result of {@link parseTemplate}. @internal */
export type ParsedTemplate =
  | { readonly ok: true; readonly parts: readonly TemplatePart[] }
  | {
      readonly ok: false;
      readonly code:
        typeof ConfigProblemCode.VALUE_REJECTED | typeof ConfigProblemCode.BAD_REFERENCE;
      /** What is wrong, to follow a subject such as `env "X" `. */
      readonly reason: string;
    };

const USE_NAME = 'write the value itself, or take it from a variable with ${NAME}';

/**
 * Why a value looks like command substitution (`!` at its start, `$(` or a backtick anywhere),
 * to follow a subject such as `env "X" `; `undefined` when it does not. The one rule every
 * value of a server entry is held to, wherever it is read (`loadConfig`, `addServer`, an
 * import): such a value was almost certainly meant to run, and nothing here ever runs anything.
 * Three fixed searches, linear in the value's length. @internal
 */
export function commandSubstitution(value: string): string | undefined {
  if (value.startsWith('!')) return 'starts with "!", which some tools run as a command';
  if (value.includes('$(')) return 'contains "$(" (command substitution)';
  if (value.includes('`')) return 'contains a backtick (command substitution)';
  return undefined;
}

/** What makes a `command` a shell command line: Garuda runs it as one program, never a shell. */
const SHELL_OPERATORS = [';', '|', '&', '<', '>', '\n'] as const;

/**
 * Why a `command` is a shell command line rather than a program (`npx x; curl … | sh`: a `;`,
 * `|`, `&`, `<`, `>` or line break in it), to follow a subject; `undefined` when it is not. No
 * shell ever runs `command`, so such a value would not do what it looks like it does. Fixed
 * searches, linear in the value's length. @internal
 */
export function shellCommandLine(command: string): string | undefined {
  const found = SHELL_OPERATORS.find((op) => command.includes(op));
  if (found === undefined) return undefined;
  return `is a shell command line (it has ${found === '\n' ? 'a line break' : `"${found}"`}), not a program`;
}

/**
 * Splits a value into text and `${NAME}` references, or says why it is refused. This is the
 * check done when a file is loaded or edited; it needs no environment. `$NAME` and `$$` are
 * plain text. There is no escape for a literal `${`. @internal
 */
export function parseTemplate(value: string): ParsedTemplate {
  // Refused outright rather than passed on as text (see commandSubstitution).
  const substitution = commandSubstitution(value);
  if (substitution !== undefined) {
    return {
      ok: false,
      code: ConfigProblemCode.VALUE_REJECTED,
      reason: `${substitution}: nothing here runs it; ${USE_NAME}`,
    };
  }
  const parts: TemplatePart[] = [];
  let index = 0;
  for (;;) {
    const start = value.indexOf('${', index);
    if (start === -1) break;
    if (start > index) parts.push({ text: value.slice(index, start) });
    const end = value.indexOf('}', start + 2);
    if (end === -1) {
      return {
        ok: false,
        code: ConfigProblemCode.BAD_REFERENCE,
        reason: 'has "${" without a closing "}": write ${NAME}',
      };
    }
    const name = value.slice(start + 2, end);
    if (!NAME.test(name)) {
      return {
        ok: false,
        code: ConfigProblemCode.BAD_REFERENCE,
        reason:
          `has a \${…} with ${quoteText(name)} inside, which is not a variable name: ` +
          'use ${NAME} with letters, digits and _, not starting with a digit',
      };
    }
    parts.push({ name });
    index = end + 1;
  }
  if (index < value.length) parts.push({ text: value.slice(index) });
  return { ok: true, parts };
}

/** A running total of expanded characters, shared by the values of one or more servers. @internal */
export interface ExpansionBudget {
  remaining: number;
}

function variables(names: readonly string[]): string {
  return names.map((n) => `\${${n}}`).join(', ');
}

/**
 * {@link expandEnv} with a caller-held budget for the total length of all expanded values.
 * @internal
 */
export function expandWithBudget(
  values: Readonly<Record<string, string>>,
  from: Readonly<Record<string, string | undefined>>,
  kind: 'env' | 'header',
  budget: ExpansionBudget,
): ExpandEnvResult {
  const out: Record<string, string> = {};
  const sources: Record<string, EnvSource> = {};
  const missing: string[] = [];
  const problems: ExpandProblem[] = [];
  const unsafe = kind === 'header' ? /[\r\n\0]/ : /\0/;
  const unsafeWhat = kind === 'header' ? 'a line break or NUL character' : 'a NUL character';

  for (const key of Object.keys(values)) {
    const raw = values[key];
    if (typeof raw !== 'string') {
      throw invalidArgument(
        `expandEnv: the value of ${quoteText(key)} is ${raw === null ? 'null' : typeof raw}, not a string`,
      );
    }
    const subject = `${kind} ${quoteText(key)}`;
    const template = parseTemplate(raw);
    if (!template.ok) {
      problems.push({ code: template.code, key, message: `${subject} ${template.reason}` });
      continue;
    }
    const names: string[] = [];
    const missingHere: string[] = [];
    let value = '';
    let tooLong: string | undefined;
    for (const part of template.parts) {
      let piece: string;
      if ('text' in part) {
        piece = part.text;
      } else if (kind === 'env' && part.name === SERVER_HOME_VARIABLE) {
        piece = `\${${SERVER_HOME_VARIABLE}}`; // the manager's to fill in
      } else {
        if (!names.includes(part.name)) names.push(part.name);
        const found = Object.hasOwn(from, part.name) ? from[part.name] : undefined;
        if (typeof found === 'string') {
          piece = found;
        } else {
          piece = '';
          if (!missingHere.includes(part.name)) missingHere.push(part.name);
        }
      }
      // Checked before joining, so "${PATH}" written many times never builds a huge string.
      if (value.length + piece.length > MAX_VALUE_LENGTH) {
        tooLong = `would be longer than ${MAX_VALUE_LENGTH} characters once expanded`;
        break;
      }
      if (value.length + piece.length > budget.remaining) {
        tooLong =
          'would take the expanded values past their limit ' +
          `(${MAX_SERVER_EXPANSION} characters per server, ${MAX_TOTAL_EXPANSION} in all)`;
        break;
      }
      value += piece;
    }
    if (tooLong !== undefined) {
      problems.push({
        code: ConfigProblemCode.VALUE_TOO_LONG,
        key,
        message: `${subject} ${tooLong}: it was not used; shorten it or the variables it takes`,
      });
      continue;
    }
    if (unsafe.test(value)) {
      problems.push({
        code: ConfigProblemCode.VALUE_UNSAFE,
        key,
        message:
          names.length === 0
            ? `${subject} contains ${unsafeWhat}: it was not used; remove it`
            : `${subject} would contain ${unsafeWhat} once expanded (from ${variables(names)}): ` +
              'it was not used; fix the variable',
      });
      continue;
    }
    budget.remaining -= value.length;
    defineOwn(out, key, value);
    defineOwn<EnvSource>(
      sources,
      key,
      names.length === 0 ? { kind: 'literal' } : { kind: 'vars', names, missing: missingHere },
    );
    for (const name of missingHere) if (!missing.includes(name)) missing.push(name);
    if (missingHere.length > 0) {
      const one = missingHere.length === 1;
      problems.push({
        code: ConfigProblemCode.MISSING_VARIABLE,
        key,
        message:
          `${subject} takes ${variables(missingHere)}, which ${one ? 'is' : 'are'} not set, ` +
          `so the server will not start until ${one ? 'it is' : 'they are'}: set ` +
          `${missingHere.join(', ')} in the environment that starts this program, or change ` +
          'the value',
      });
    }
  }
  return { values: out, sources, missing, problems };
}

/**
 * Expands `${NAME}` references in env or header values from `from` (usually the caller's
 * `process.env`; this package never reads it itself).
 *
 * - Only `${NAME}` is expanded, NAME being `[A-Za-z_][A-Za-z0-9_]*`. `$NAME` and `$$` stay
 *   as they are. Expanded text is never expanded again.
 * - A name that is not set becomes empty; it is listed in `missing` and reported (a manager
 *   does not start a server that takes one).
 * - A value that starts with `!` or contains `$(` or a backtick is refused (command
 *   substitution is never run), and so is `${` without `}` or with something other than a
 *   name inside: such a value is reported and left out of `values`.
 * - A value longer than 100 000 characters once expanded, or all values together longer than
 *   1 MiB, is refused, as is a value that would contain NUL (and, for headers, CR or LF).
 *
 * Messages never contain an expanded value.
 *
 * @param values - Keys and values as written, e.g. a server's `env` or `headers`.
 * @param from - The environment to take variables from (own properties only).
 * @param options - `kind: 'header'` for header values.
 * @returns Expanded values, where each comes from, the missing names, and problems.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` when `values` or `from` is not an object or a value is
 *   not a string (a programming error).
 * @example
 * ```ts
 * const r = expandEnv({ TOKEN: 'Bearer ${GH_TOKEN}', MODE: 'fast' }, { GH_TOKEN: 'abc' });
 * r.values; // { TOKEN: 'Bearer abc', MODE: 'fast' }
 * r.sources.TOKEN; // { kind: 'vars', names: ['GH_TOKEN'], missing: [] }
 * r.sources.MODE; // { kind: 'literal' }
 * ```
 */
export function expandEnv(
  values: Readonly<Record<string, string>>,
  from: Readonly<Record<string, string | undefined>>,
  options: ExpandEnvOptions = {},
): ExpandEnvResult {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw invalidArgument('expandEnv: values must be an object of name: value strings');
  }
  if (typeof from !== 'object' || from === null || Array.isArray(from)) {
    throw invalidArgument('expandEnv: from must be an object such as process.env');
  }
  if (typeof options !== 'object' || options === null) {
    throw invalidArgument('expandEnv: options must be an object');
  }
  const kind = options.kind ?? 'env';
  if (kind !== 'env' && kind !== 'header') {
    throw invalidArgument('expandEnv: options.kind must be "env" or "header"');
  }
  return expandWithBudget(values, from, kind, { remaining: MAX_SERVER_EXPANSION });
}
