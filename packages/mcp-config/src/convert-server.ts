import { isRecord } from '@garuda/internal';
import { CLIENT_NAMES, mapClientFields, type DraftServer } from './client-fields.js';
import {
  argIsSecret,
  convertPlain,
  convertTemplate,
  isWrittenSecret,
  urlIsSecret,
  type ValueContext,
} from './convert-values.js';
import { ConfigProblemCode } from './config-problem.js';
import { commandSubstitution, shellCommandLine } from './expand-env.js';
import { formatFieldPath } from './field-path.js';
import { ImportNoteCode, type ImportClient, type ImportNote } from './import-types.js';
import { looksSecretValue } from './looks-secret.js';
import { quoteText } from './quote-text.js';
import type { ServerEntry } from './server-types.js';
import { validateServer } from './validate-server.js';
import { defineOwn } from './plain-object.js';

/** One server converted, or why it cannot be imported. @internal */
export type ConvertResult =
  | { readonly ok: true; readonly entry: ServerEntry; readonly warnings: readonly ImportNote[] }
  | {
      readonly ok: false;
      readonly warnings: readonly ImportNote[];
      readonly problems: readonly ImportNote[];
    };

const LOCAL_FIELDS = ['command', 'args', 'env', 'cwd', 'timeoutMs', 'enabled'] as const;
const REMOTE_FIELDS = ['url', 'headers', 'timeoutMs', 'enabled', 'oauth'] as const;
const ALL_FIELDS = [...new Set([...LOCAL_FIELDS, ...REMOTE_FIELDS])];
const AUTH_SCHEME = /^(Bearer|Basic|Token|Bot)\s+(\S[\s\S]*)$/i;

/** `<SERVER>_<HEADER>` as an environment variable name, unique within the server. */
function headerVariable(server: string, header: string, used: Set<string>): string {
  let base = `${server}_${header}`
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  if (base === '' || /^[0-9]/.test(base)) base = `MCP_${base}`;
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
  used.add(name);
  return name;
}

function secretReplaced(
  field: string,
  variable: string,
  clientName: string,
  scheme?: string,
): ImportNote {
  return {
    code: ImportNoteCode.SECRET_REPLACED,
    field,
    variable,
    message:
      `${quoteText(field)} held a secret written out, which was not copied: the entry takes ` +
      `\${${variable}} instead, so set ${variable} in the environment Garuda runs in (to the ` +
      `value ${clientName} had${scheme === undefined ? '' : `, without "${scheme} "`})`,
  };
}

function secretInPlainField(field: string): ImportNote {
  return {
    code: ImportNoteCode.SECRET_IN_PLAIN_FIELD,
    field,
    message:
      `${quoteText(field)} looks like it holds a secret written out; Garuda passes this field ` +
      `as written, so the secret would be copied: the server was not imported. ${
        field === 'url'
          ? 'If the server takes the secret in a header, add it with `garuda-mcp add <name> ' +
            '--url <url>` and a header that takes ${NAME} (or sign in with OAuth)'
          : 'If the server can read it from its environment, add it with `garuda-mcp add` and ' +
            'an env entry that takes ${NAME}'
      }`,
  };
}

type Step<T> = { ok: true; value: T } | { ok: false; problem: ImportNote };

/** Converts command, args, cwd and url: placeholders, then secrets. */
function convertPlainFields(
  fields: Record<string, unknown>,
  ctx: ValueContext,
  warnings: ImportNote[],
): Step<Record<string, unknown>> {
  const out: Record<string, unknown> = { ...fields };
  const plain = (value: string, field: string): Step<string> => {
    const converted = convertPlain(value, field, ctx);
    if (!converted.ok) return { ok: false, problem: converted.note };
    // The loader's rule, on the value as it would be written (checked again by validation).
    const substitution =
      commandSubstitution(converted.value) ??
      (field === 'command' ? shellCommandLine(converted.value) : undefined);
    if (substitution !== undefined) {
      return {
        ok: false,
        problem: {
          code: ImportNoteCode.VALUE_REFUSED,
          field,
          message:
            `${quoteText(field)} ${substitution}: Garuda runs no shell and refuses such a ` +
            `value, so the server was not imported; ${ctx.clientName} may run it through a ` +
            'shell, so check the entry there too',
        },
      };
    }
    warnings.push(...converted.notes);
    return { ok: true, value: converted.value };
  };
  for (const key of ['command', 'cwd', 'url'] as const) {
    const value = fields[key];
    if (typeof value !== 'string') continue;
    const converted = plain(value, key);
    if (!converted.ok) return converted;
    const secret = key === 'url' ? urlIsSecret(converted.value) : looksSecretValue(converted.value);
    if (secret) return { ok: false, problem: secretInPlainField(key) };
    out[key] = converted.value;
  }
  if (Array.isArray(fields.args)) {
    const args: unknown[] = [];
    for (const [i, arg] of fields.args.entries()) {
      if (typeof arg !== 'string') {
        args.push(arg);
        continue;
      }
      const converted = plain(arg, formatFieldPath(['args', i]));
      if (!converted.ok) return converted;
      args.push(converted.value);
    }
    const strings = args.map((a) => (typeof a === 'string' ? a : ''));
    for (let i = 0; i < strings.length; i++) {
      if (argIsSecret(strings, i))
        return { ok: false, problem: secretInPlainField(formatFieldPath(['args', i])) };
    }
    out.args = args;
  }
  return { ok: true, value: out };
}

/** Converts env and header values: syntax, then secrets written out become `${NAME}`. */
function convertTemplates(
  fields: Record<string, unknown>,
  server: string,
  ctx: ValueContext,
  warnings: ImportNote[],
): Step<Record<string, unknown>> {
  const out: Record<string, unknown> = { ...fields };
  const used = new Set<string>();
  for (const kind of ['env', 'headers'] as const) {
    const values = fields[kind];
    if (!isRecord(values)) continue;
    const converted: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      if (key === '__proto__') {
        // Most code that copies the record would drop it silently; refused like a bad name.
        return {
          ok: false,
          problem: {
            code: ImportNoteCode.INVALID_ENTRY,
            configProblemCode: ConfigProblemCode.INVALID_VALUE,
            field: formatFieldPath([kind, key]),
            message: `${kind === 'env' ? 'env' : 'header'} name "__proto__" is not a valid name: it cannot be imported`,
          },
        };
      }
      if (typeof value !== 'string') {
        defineOwn(converted, key, value);
        continue;
      }
      const field = formatFieldPath([kind, key]);
      const result = convertTemplate(value, field, ctx);
      if (!result.ok) return { ok: false, problem: result.note };
      warnings.push(...result.notes);
      if (!isWrittenSecret(key, result.value)) {
        defineOwn(converted, key, result.value);
      } else if (kind === 'env') {
        defineOwn(converted, key, `\${${key}}`);
        warnings.push(secretReplaced(field, key, ctx.clientName));
      } else {
        const variable = headerVariable(server, key, used);
        const scheme = AUTH_SCHEME.exec(result.value);
        const keepScheme = scheme !== null && !/\$\{/.test(scheme[2] ?? '');
        defineOwn(converted, key, keepScheme ? `${scheme[1]} \${${variable}}` : `\${${variable}}`);
        warnings.push(
          secretReplaced(field, variable, ctx.clientName, keepScheme ? scheme[1] : undefined),
        );
      }
    }
    out[kind] = converted;
  }
  return { ok: true, value: out };
}

/** The entry in Garuda's shape: only the keys of its kind (both when the kind is unclear). */
function entryOf(draft: DraftServer, fields: Record<string, unknown>): Record<string, unknown> {
  const keys =
    draft.kind === 'local' ? LOCAL_FIELDS : draft.kind === 'remote' ? REMOTE_FIELDS : ALL_FIELDS;
  const entry: Record<string, unknown> = {};
  for (const key of keys) {
    if (Object.hasOwn(fields, key) && fields[key] !== undefined) defineOwn(entry, key, fields[key]);
  }
  if (draft.kind === 'remote') {
    // Fields of a local server on a remote one: validation names each.
    for (const key of LOCAL_FIELDS) {
      if (!Object.hasOwn(entry, key) && fields[key] !== undefined)
        defineOwn(entry, key, fields[key]);
    }
  } else if (draft.kind === 'local') {
    for (const key of REMOTE_FIELDS) {
      if (!Object.hasOwn(entry, key) && fields[key] !== undefined)
        defineOwn(entry, key, fields[key]);
    }
  }
  return entry;
}

/**
 * Converts one server of a client's file into a Garuda entry named `name`, as a chain of small
 * steps: the client's fields mapped to Garuda's, plain fields (command, args, cwd, url), env and
 * header values, then this package's own validation for the file's scope. @internal
 */
export function convertServer(
  client: ImportClient,
  name: string,
  raw: unknown,
  ctx: ValueContext,
): ConvertResult {
  if (!isRecord(raw)) {
    return {
      ok: false,
      warnings: [],
      problems: [
        {
          code: ImportNoteCode.NOT_AN_OBJECT,
          message: `is not an object like { "command": … } in ${CLIENT_NAMES[client]}'s file: it cannot be imported`,
        },
      ],
    };
  }
  const mapped = mapClientFields(client, raw);
  if (!mapped.ok) return { ok: false, warnings: mapped.notes, problems: [mapped.problem] };
  const warnings: ImportNote[] = [...mapped.draft.notes];
  const refused = (problem: ImportNote): ConvertResult => ({
    ok: false,
    warnings,
    problems: [problem],
  });

  const plain = convertPlainFields(mapped.draft.fields, ctx, warnings);
  if (!plain.ok) return refused(plain.problem);
  const templates = convertTemplates(plain.value, name, ctx, warnings);
  if (!templates.ok) return refused(templates.problem);

  const entry = entryOf(mapped.draft, templates.value);
  const { def, issues } = validateServer(name, entry, ctx.scope);
  if (def === undefined || issues.length > 0) {
    return {
      ok: false,
      warnings,
      problems: issues.map((issue) => ({
        code: ImportNoteCode.INVALID_ENTRY,
        configProblemCode: issue.code,
        ...(issue.field === undefined ? {} : { field: issue.field }),
        message: issue.message,
      })),
    };
  }
  return { ok: true, entry: entry as unknown as ServerEntry, warnings };
}
