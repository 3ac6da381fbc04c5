import { isRecord } from '@garuda/internal';
import { quoteUnlessSecret } from './convert-values.js';
import { HOSTS, hostById } from './hosts/index.js';
import { ImportNoteCode, type ImportClient, type ImportNote } from './import-types.js';
import { quoteText, shortText } from './quote-text.js';
import { defineOwn } from './plain-object.js';

/** Garuda's own fields that no other client's format has (an import leaves them out). */
const GARUDA_ONLY_FIELDS: ReadonlySet<string> = new Set([
  'writePaths',
  'readPaths',
  'network',
  'timeoutMs',
  'startTimeoutMs',
]);

/** How each client is named in messages. @internal */
export const CLIENT_NAMES = Object.fromEntries(
  HOSTS.map((host) => [host.id, host.displayName]),
) as Readonly<Record<ImportClient, string>>;

/** A server in Garuda's shape with its values not yet converted. @internal */
export interface DraftServer {
  readonly kind: 'local' | 'remote' | undefined;
  /** Garuda's keys only (command, args, env, cwd, url, headers, timeoutMs, enabled, oauth). */
  readonly fields: Record<string, unknown>;
  readonly notes: readonly ImportNote[];
}

/** The draft, or why the server cannot be imported (with the warnings found before). @internal */
export type MapResult =
  | { readonly ok: true; readonly draft: DraftServer }
  | { readonly ok: false; readonly notes: readonly ImportNote[]; readonly problem: ImportNote };

const AUTO_APPROVE_KEYS: readonly string[] = ['trust', 'autoApprove', 'alwaysAllow'];
const TOOL_FILTER_KEYS: readonly string[] = [
  'includeTools',
  'excludeTools',
  'enabled_tools',
  'disabled_tools',
  'disabledTools',
];
const REMOTE_TYPES: readonly string[] = ['http', 'streamable-http', 'streamablehttp'];

// Why some fields are not carried over, where saying so helps the user.
const HINTS: Readonly<Record<string, string>> = {
  envFile:
    'the variables in that file are not read: set them in the environment, or add them to env',
  headersHelper:
    'a command that makes headers, which Garuda never runs: set the headers with ${NAME}',
  startup_timeout_sec: 'Garuda gives every server 30 s to start',
  startup_timeout_ms: 'Garuda gives every server 30 s to start',
  'oauth.clientSecret': 'Garuda signs in as a public client, without a client secret',
  'oauth.callbackPort': 'Garuda picks its own sign-in callback address',
  url: 'Gemini CLI uses httpUrl first, and so does the import',
};

function own(raw: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(raw, key) ? raw[key] : undefined;
}

/** A copy of a name: value object as plain data; numbers and booleans written as strings. */
function copyValues(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const item =
      typeof v === 'number' && Number.isFinite(v)
        ? String(v)
        : typeof v === 'boolean'
          ? String(v)
          : v;
    defineOwn(out, key, item);
  }
  return out;
}

function legacySse(clientName: string, how: string, field = 'type'): ImportNote {
  return {
    code: ImportNoteCode.LEGACY_SSE,
    field,
    message:
      `${how} is the legacy HTTP+SSE transport (${clientName} still speaks it; MCP replaced it ` +
      'with Streamable HTTP), which Garuda does not support: if the server has a Streamable ' +
      'HTTP endpoint (often ending in /mcp), add that with `garuda-mcp add <name> --url <url>`',
  };
}

function unsupported(clientName: string, what: string, field = 'type'): ImportNote {
  return {
    code: ImportNoteCode.UNSUPPORTED_TRANSPORT,
    field,
    message:
      `${what}, a connection ${clientName} has and Garuda does not (Garuda has stdio and ` +
      'Streamable HTTP): it cannot be imported',
  };
}

function endsInSse(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    return /\/sse\/?$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** A time limit in milliseconds, or the warning that it was not carried over. */
function timeoutOf(field: string, ms: unknown, notes: ImportNote[]): number | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    notes.push({
      code: ImportNoteCode.TIMEOUT_NOT_CARRIED,
      field,
      message: `${quoteText(field)} is not a number of ${field.endsWith('_sec') ? 'seconds' : 'milliseconds'}: Garuda uses its default of 60 s per call`,
    });
    return undefined;
  }
  const rounded = Math.round(ms);
  if (rounded < 1000 || rounded > 600_000) {
    notes.push({
      code: ImportNoteCode.TIMEOUT_NOT_CARRIED,
      field,
      message:
        `${quoteText(field)} is outside what Garuda allows for a call (1 to 600 s): Garuda uses ` +
        'its default of 60 s; set "timeoutMs" yourself to change it',
    });
    return undefined;
  }
  return rounded;
}

/**
 * Maps one server of a client's file to Garuda's field names: the transport (refusing the
 * legacy SSE one and those Garuda does not have), the fields that have an equivalent, and a
 * warning for every field that has none. Values are converted later. @internal
 */
export function mapClientFields(
  client: ImportClient,
  raw: Readonly<Record<string, unknown>>,
): MapResult {
  const host = hostById(client);
  const clientName = host.displayName;
  const notes: ImportNote[] = [];
  const handled = new Set<string>();
  const take = (key: string): unknown => {
    handled.add(key);
    return own(raw, key);
  };
  const fields: Record<string, unknown> = {};
  const set = (key: string, value: unknown): void => {
    if (value !== undefined) defineOwn(fields, key, value);
  };
  const refuse = (problem: ImportNote): MapResult => ({ ok: false, notes, problem });
  const notCarried: string[] = [];

  // The transport.
  let kind: 'local' | 'remote' | undefined;
  let url = take('url');
  const type = take('type');
  if (host.fields === 'gemini') {
    const httpUrl = take('httpUrl');
    const tcp = take('tcp');
    const typeName = typeof type === 'string' ? type.toLowerCase() : undefined;
    if (httpUrl !== undefined) {
      if (url !== undefined) notCarried.push('url');
      url = httpUrl;
      kind = 'remote';
    } else if (url !== undefined) {
      if (typeName === undefined || !REMOTE_TYPES.includes(typeName)) {
        return refuse(legacySse(clientName, 'Gemini CLI\'s "url"', 'url'));
      }
      kind = 'remote';
    } else if (tcp !== undefined) {
      return refuse(unsupported(clientName, '"tcp" is a WebSocket connection', 'tcp'));
    } else if (typeName === 'sse') {
      return refuse(legacySse(clientName, '"type": "sse"'));
    }
  } else if (host.fields === 'codex') {
    // Codex speaks only stdio and Streamable HTTP, so its url is never the legacy transport.
    if (url !== undefined) kind = 'remote';
    if (type !== undefined) notCarried.push('type');
  } else if (type !== undefined) {
    if (typeof type !== 'string') {
      return refuse(unsupported(clientName, `"type" is ${typeof type}, not a transport name`));
    }
    const name = type.toLowerCase();
    if (name === 'sse') return refuse(legacySse(clientName, '"type": "sse"'));
    if (name === 'stdio') kind = 'local';
    else if (REMOTE_TYPES.includes(name)) kind = 'remote';
    else
      return refuse(unsupported(clientName, `"type": ${quoteUnlessSecret(type)} is a transport`));
  } else if (url !== undefined && !Object.hasOwn(raw, 'command')) {
    if (endsInSse(url)) {
      return refuse(legacySse(clientName, 'a URL that ends in /sse with no "type"', 'url'));
    }
    kind = 'remote';
  }
  kind ??= Object.hasOwn(raw, 'command') ? 'local' : undefined;

  set('command', take('command'));
  set('args', take('args'));
  set('env', copyValues(take('env')));
  set('cwd', take('cwd'));
  set('url', url);
  set('headers', copyValues(take('headers')));
  if (kind === 'remote' && url === undefined) {
    return refuse({
      code: ImportNoteCode.INVALID_ENTRY,
      field: 'url',
      message: `${clientName} calls it a remote server, but it has no URL: it cannot be imported`,
    });
  }
  if (kind === 'local' && !Object.hasOwn(raw, 'command')) {
    return refuse({
      code: ImportNoteCode.INVALID_ENTRY,
      field: 'command',
      message: `${clientName} calls it a local (stdio) server, but it has no command: it cannot be imported`,
    });
  }

  // Codex's ways of naming env and headers.
  if (host.fields === 'codex') {
    const envVars = take('env_vars');
    if (Array.isArray(envVars)) {
      const env = isRecord(fields.env) ? fields.env : {};
      for (const name of envVars) {
        if (typeof name === 'string' && !Object.hasOwn(env, name))
          defineOwn(env, name, `\${${name}}`);
      }
      if (fields.env === undefined || isRecord(fields.env)) set('env', env);
    } else if (envVars !== undefined) {
      notCarried.push('env_vars');
    }
    const headers: Record<string, unknown> = {};
    const addHeader = (key: string, name: string, value: unknown): void => {
      if (Object.hasOwn(headers, name)) notCarried.push(`${key}.${name}`);
      else defineOwn(headers, name, value);
    };
    const staticHeaders = copyValues(take('http_headers'));
    if (isRecord(staticHeaders)) {
      for (const [name, value] of Object.entries(staticHeaders))
        addHeader('http_headers', name, value);
    } else if (staticHeaders !== undefined) notCarried.push('http_headers');
    const envHeaders = take('env_http_headers');
    if (isRecord(envHeaders)) {
      for (const [name, variable] of Object.entries(envHeaders)) {
        if (typeof variable === 'string') addHeader('env_http_headers', name, `\${${variable}}`);
        else notCarried.push(`env_http_headers.${name}`);
      }
    } else if (envHeaders !== undefined) notCarried.push('env_http_headers');
    const bearerVar = take('bearer_token_env_var');
    const bearer = take('bearer_token');
    if (typeof bearerVar === 'string')
      addHeader('bearer_token_env_var', 'Authorization', `Bearer \${${bearerVar}}`);
    else if (bearerVar !== undefined) notCarried.push('bearer_token_env_var');
    if (typeof bearer === 'string') addHeader('bearer_token', 'Authorization', `Bearer ${bearer}`);
    else if (bearer !== undefined) notCarried.push('bearer_token');
    if (Object.keys(headers).length > 0) set('headers', headers);
  }

  // Time limits: Gemini's "timeout" is per request in ms, Codex's tool_timeout_sec per call.
  if (host.fields === 'gemini') {
    const timeout = take('timeout');
    if (timeout !== undefined) set('timeoutMs', timeoutOf('timeout', timeout, notes));
  }
  if (host.fields === 'codex') {
    const seconds = take('tool_timeout_sec');
    if (seconds !== undefined) {
      set(
        'timeoutMs',
        timeoutOf(
          'tool_timeout_sec',
          typeof seconds === 'number' ? seconds * 1000 : seconds,
          notes,
        ),
      );
    }
    for (const key of ['startup_timeout_sec', 'startup_timeout_ms']) {
      if (take(key) !== undefined) {
        notes.push({
          code: ImportNoteCode.TIMEOUT_NOT_CARRIED,
          field: key,
          message: `${quoteText(key)} is a time limit for starting, which is not carried over: ${HINTS[key] ?? ''}`,
        });
      }
    }
  }

  // On and off.
  const enabled = take('enabled');
  const disabled = take('disabled');
  if (typeof enabled === 'boolean') set('enabled', enabled);
  else if (enabled !== undefined) notCarried.push('enabled');
  if (typeof disabled === 'boolean') {
    if (disabled) set('enabled', false);
  } else if (disabled !== undefined) notCarried.push('disabled');

  // OAuth: a pre-registered client id and scopes have an equivalent; nothing else does.
  const oauth = host.oauth ? take('oauth') : undefined;
  if (isRecord(oauth) && kind === 'remote') {
    const settings: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(oauth)) {
      if (key === 'clientId' && typeof value === 'string' && value !== '')
        defineOwn(settings, key, value);
      else if (key === 'scopes' && Array.isArray(value) && value.length > 0)
        defineOwn(settings, key, [...value]);
      else if (key !== 'enabled' && key !== '__proto__') notCarried.push(`oauth.${key}`);
    }
    if (Object.keys(settings).length > 0) set('oauth', settings);
  } else if (oauth !== undefined) {
    notCarried.push('oauth');
  }

  // What Garuda decides itself: approval of every call, and (for now) every tool offered.
  const approvals = AUTO_APPROVE_KEYS.filter((key) => {
    const value = take(key);
    return value === true || (Array.isArray(value) && value.length > 0);
  });
  if (approvals.length > 0) {
    notes.push({
      code: ImportNoteCode.AUTO_APPROVE_NOT_CARRIED,
      keys: approvals,
      message:
        `${approvals.map((k) => quoteText(k)).join(', ')} let ${clientName} run this server's ` +
        'tools without asking; that is not carried over: Garuda still asks before every call',
    });
  }
  const filters = TOOL_FILTER_KEYS.filter((key) => {
    const value = take(key);
    return Array.isArray(value) ? value.length > 0 : value !== undefined;
  });
  if (filters.length > 0) {
    notes.push({
      code: ImportNoteCode.TOOL_FILTER_NOT_CARRIED,
      keys: filters,
      message:
        `${filters.map((k) => quoteText(k)).join(', ')} chose which tools ${clientName} offers; ` +
        'that is not carried over: Garuda offers every tool the server lists until you add ' +
        '"allowTools" or "denyTools" to its entry',
    });
  }

  for (const key of Object.keys(raw)) {
    if (!handled.has(key)) notCarried.push(key);
  }
  // A key spelled like one of Garuda's own fields is not the other client's: say so, rather than
  // that Garuda has nothing like it.
  const garudaOnly = notCarried.filter((key) => GARUDA_ONLY_FIELDS.has(key));
  if (garudaOnly.length > 0) {
    notes.push({
      code: ImportNoteCode.NOT_CARRIED_OVER,
      keys: garudaOnly,
      message:
        `${garudaOnly.map((k) => quoteText(k)).join(', ')} ${garudaOnly.length === 1 ? 'is' : 'are'} not part of ` +
        `${clientName}'s format, so ${garudaOnly.length === 1 ? 'it was' : 'they were'} left out: set ` +
        `${garudaOnly.length === 1 ? 'it' : 'them'} in Garuda's file (garuda-mcp add --write, --read, --network, --timeout)`,
    });
  }
  const others = notCarried.filter((key) => !GARUDA_ONLY_FIELDS.has(key));
  notCarried.length = 0;
  notCarried.push(...others);
  if (notCarried.length > 0) {
    const keys = notCarried.slice(0, 20).map((key) => shortText(key));
    const hints = notCarried
      .filter((key) => HINTS[key] !== undefined && !(key === 'url' && host.fields !== 'gemini'))
      .map((key) => `${quoteText(key)}: ${HINTS[key] ?? ''}`);
    notes.push({
      code: ImportNoteCode.NOT_CARRIED_OVER,
      keys,
      message:
        `${keys.map((k) => quoteText(k)).join(', ')}${notCarried.length > keys.length ? ` and ${notCarried.length - keys.length} more` : ''} ` +
        `${notCarried.length === 1 ? 'has' : 'have'} no equivalent in Garuda and ${notCarried.length === 1 ? 'was' : 'were'} left out` +
        (hints.length > 0 ? ` (${hints.join('; ')})` : ''),
    });
  }
  return { ok: true, draft: { kind, fields, notes } };
}
