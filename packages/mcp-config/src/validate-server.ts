import type * as z from 'zod/mini';
import { checkServerUrl } from './check-server-url.js';
import { ConfigProblemCode } from './config-problem.js';
import { commandSubstitution, parseTemplate, shellCommandLine } from './expand-env.js';
import { formatFieldPath, type FieldPath } from './field-path.js';
import { quoteText } from './quote-text.js';
import { CONTROL_LIST, CONTROL_RULES, batchingProblem, controlDef } from './control-fields.js';
import {
  DEFAULT_TIMEOUT_MS,
  LOCAL_KEYS,
  localServerSchema,
  REMOTE_KEYS,
  remoteServerSchema,
  RESERVED_HEADERS,
  SERVER_NAME,
} from './server-schema.js';
import type { ServerDef, ServerSource } from './server-types.js';

/** One thing wrong with a server entry, before it is tied to a file. @internal */
export interface ServerIssue {
  readonly code: ConfigProblemCode;
  /** Where inside the server value; undefined for the name or the server as a whole. */
  readonly path?: FieldPath;
  /** `path` as users read it. */
  readonly field?: string;
  readonly message: string;
}

/** The result of {@link validateServer}. @internal */
export interface ValidateResult {
  /** The definition with defaults applied, when there are no issues. */
  readonly def: ServerDef | undefined;
  readonly issues: readonly ServerIssue[];
}

// What each field must be, and so what to do. Keyed by the path with array indexes written as
// [] and env / header names as {}.
const RULES: Readonly<Record<string, string>> = {
  command: 'must be the program to run: a non-empty string without NUL characters',
  args: 'must be a list of strings, like ["--stdio"]',
  'args[]': 'must be a string without NUL characters (put numbers and true/false in quotes)',
  env: 'must be an object of NAME: "value" pairs',
  'env{}': 'must be a string without NUL characters (put numbers and true/false in quotes)',
  cwd: 'must be a folder path: a non-empty string without NUL characters',
  network: 'must be true or false',
  writePaths: 'must be a list of folder paths, like ["/tmp/out"]',
  'writePaths[]': 'must be a folder path: a non-empty string without NUL characters',
  readPaths: 'must be a list of file or folder paths, like ["~/.kube"]',
  'readPaths[]': 'must be a file or folder path: a non-empty string without NUL characters',
  timeoutMs:
    'must be a whole number of milliseconds from 1000 to 600000: change it, or remove it to use 60000',
  startTimeoutMs:
    "must be a whole number of milliseconds from 1000 to 600000: change it, or remove it to use the host's start time limit",
  enabled: 'must be true or false',
  url: "must be the server's https URL, as a string",
  type:
    'must be "stdio" for a local server (one with "command"), or "http" (also written ' +
    '"streamable-http") for a remote one; it may be left out',
  headers: 'must be an object of Header-Name: "value" pairs',
  'headers{}': 'must be a string without line breaks or NUL characters (put numbers in quotes)',
  oauth: 'must be an object with "clientId" or "clientMetadataUrl", and/or "scopes"',
  'oauth.clientId': 'must be a non-empty string',
  'oauth.clientMetadataUrl': 'must be the https URL of a Client ID Metadata Document, as a string',
  'oauth.scopes': 'must be a list of strings, like ["mcp:tools"]',
  'oauth.scopes[]': 'must be a non-empty string without spaces',
  ...CONTROL_RULES,
};

const LOCAL_LIST = `command, args, env, cwd, network, writePaths, readPaths, timeoutMs, startTimeoutMs, enabled, ${CONTROL_LIST}`;
const REMOTE_LIST = `url, type, headers, timeoutMs, startTimeoutMs, enabled, oauth, ${CONTROL_LIST}`;

function rulePattern(path: FieldPath): string {
  let out = '';
  path.forEach((segment, i) => {
    if (typeof segment === 'number') out += '[]';
    else if (i === 1 && (path[0] === 'env' || path[0] === 'headers')) out += '{}';
    else out += out === '' ? segment : `.${segment}`;
  });
  return out;
}

function toPath(path: readonly PropertyKey[]): FieldPath {
  return path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
}

function issuesFromZod(
  error: z.core.$ZodError,
  kind: 'local' | 'remote',
  prefix: string,
): ServerIssue[] {
  const issues: ServerIssue[] = [];
  const seen = new Set<string>();
  const add = (issue: ServerIssue): void => {
    const key = `${issue.code}\0${issue.field ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    issues.push(issue);
  };
  for (const issue of error.issues) {
    const base = toPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...base, key];
        const field = formatFieldPath(path);
        let message: string;
        if (base.length > 0) {
          message = `unknown field ${quoteText(field)}: remove it (oauth takes clientId, clientMetadataUrl and scopes)`;
        } else if (kind === 'local' && REMOTE_KEYS.includes(key)) {
          message = `${quoteText(key)} is only for a remote server (one with "url"): remove it`;
        } else if (kind === 'remote' && LOCAL_KEYS.includes(key)) {
          message = `${quoteText(key)} is only for a local server (one with "command"): remove it`;
        } else {
          message =
            `unknown field ${quoteText(key)}: remove it (a ${kind} server takes ` +
            `${kind === 'local' ? LOCAL_LIST : REMOTE_LIST})`;
        }
        add({ code: ConfigProblemCode.UNKNOWN_KEY, path, field, message: prefix + message });
      }
      continue;
    }
    const field = formatFieldPath(base);
    if (issue.code === 'invalid_key') {
      const key = String(base[base.length - 1] ?? '');
      const message =
        base[0] === 'env'
          ? `env name ${quoteText(key)} is not a valid variable name: ` +
            'use letters, digits and _, not starting with a digit'
          : `header name ${quoteText(key)} is not a valid header name: ` +
            "use letters, digits and !#$%&'*+-.^_`|~ only";
      add({ code: ConfigProblemCode.INVALID_VALUE, path: base, field, message: prefix + message });
      continue;
    }
    const rule = RULES[rulePattern(base)] ?? 'is not valid: check it against the documentation';
    add({
      code: ConfigProblemCode.INVALID_VALUE,
      path: base,
      field,
      message: `${prefix}${quoteText(field)} ${rule}`,
    });
  }
  return issues;
}

function templateIssues(
  values: Readonly<Record<string, string>>,
  kind: 'env' | 'headers',
  prefix: string,
): ServerIssue[] {
  const issues: ServerIssue[] = [];
  for (const [key, value] of Object.entries(values)) {
    const template = parseTemplate(value);
    if (template.ok) continue;
    const path = [kind, key];
    issues.push({
      code: template.code,
      path,
      field: formatFieldPath(path),
      message: `${prefix}${kind === 'env' ? 'env' : 'header'} ${quoteText(key)} ${template.reason}`,
    });
  }
  return issues;
}

/**
 * The command-substitution rule (see {@link commandSubstitution}) on the fields passed as they
 * are written: `command`, each of `args`, `cwd` and `url`. `env` and `headers` get it from
 * {@link parseTemplate}.
 */
function plainFieldIssues(raw: Record<string, unknown>, prefix: string): ServerIssue[] {
  const issues: ServerIssue[] = [];
  const check = (value: unknown, path: FieldPath): void => {
    if (typeof value !== 'string') return;
    const substitution = commandSubstitution(value);
    if (substitution === undefined) return;
    const field = formatFieldPath(path);
    issues.push({
      code: ConfigProblemCode.VALUE_REJECTED,
      path,
      field,
      message:
        `${prefix}${quoteText(field)} ${substitution}: nothing here runs it (no shell sees ` +
        'this field), so the server is not used; write the value itself',
    });
  };
  for (const key of ['command', 'cwd', 'url'] as const) check(raw[key], [key]);
  if (Array.isArray(raw.args)) raw.args.forEach((arg: unknown, i) => check(arg, ['args', i]));
  const shell = typeof raw.command === 'string' ? shellCommandLine(raw.command) : undefined;
  if (issues.length === 0 && shell !== undefined) {
    issues.push({
      code: ConfigProblemCode.VALUE_REJECTED,
      path: ['command'],
      field: 'command',
      message:
        `${prefix}"command" ${shell}: Garuda runs it as one program and never through a shell; ` +
        'write the program in "command" and its arguments in "args"',
    });
  }
  return issues;
}

function headerIssues(headers: Readonly<Record<string, string>>, prefix: string): ServerIssue[] {
  const issues: ServerIssue[] = [];
  const byLowerCase = new Map<string, string>();
  for (const key of Object.keys(headers)) {
    const path = ['headers', key];
    const lower = key.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) {
      issues.push({
        code: ConfigProblemCode.INVALID_VALUE,
        path,
        field: formatFieldPath(path),
        message: `${prefix}header ${quoteText(key)} is set by the client itself and cannot be configured: remove it`,
      });
    }
    const earlier = byLowerCase.get(lower);
    if (earlier !== undefined) {
      issues.push({
        code: ConfigProblemCode.DUPLICATE_KEY,
        path,
        field: formatFieldPath(path),
        message:
          `${prefix}headers ${quoteText(earlier)} and ${quoteText(key)} are the same header ` +
          '(header names ignore case): keep one',
      });
    } else {
      byLowerCase.set(lower, key);
    }
  }
  return issues;
}

/**
 * The checks of `oauth` beyond its shape: a Client ID Metadata Document URL is https with a path
 * (the URL is the client id an authorization server fetches), and a client has one identity.
 */
function oauthIssues(oauth: unknown, prefix: string): ServerIssue[] {
  if (typeof oauth !== 'object' || oauth === null || Array.isArray(oauth)) return [];
  const { clientId, clientMetadataUrl } = oauth as Record<string, unknown>;
  if (typeof clientMetadataUrl !== 'string') return [];
  const path = ['oauth', 'clientMetadataUrl'];
  const field = formatFieldPath(path);
  const issue = (message: string): ServerIssue => ({
    code: ConfigProblemCode.INVALID_VALUE,
    path,
    field,
    message: `${prefix}${quoteText(field)} ${message}`,
  });
  if (clientId !== undefined) {
    return [
      issue(
        'and "oauth.clientId" are two ways to name the client: keep clientId (registered with ' +
          "the server's operator) or clientMetadataUrl, not both",
      ),
    ];
  }
  let url: URL | undefined;
  try {
    url = new URL(clientMetadataUrl);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    url.protocol !== 'https:' ||
    url.pathname === '/' ||
    url.username !== '' ||
    url.password !== '' ||
    url.hash !== '' ||
    /[\s\0]/.test(clientMetadataUrl)
  ) {
    return [
      issue(
        'must be the https URL of a Client ID Metadata Document with a path, like ' +
          '"https://example.com/oauth/client.json" (no user name, password or #fragment)',
      ),
    ];
  }
  return [];
}

/**
 * Checks a server name and entry the way `loadConfig` and `addServer` both do, and applies the
 * defaults. Never throws. @internal
 */
export function validateServer(name: string, value: unknown, source: ServerSource): ValidateResult {
  const issues: ServerIssue[] = [];
  const prefix = `server ${quoteText(name)}: `;
  if (!SERVER_NAME.test(name)) {
    issues.push({
      code: ConfigProblemCode.INVALID_NAME,
      message:
        `server name ${quoteText(name)} is invalid: use a-z, 0-9, _ and -, at most 32 ` +
        'characters, starting with a letter or digit',
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push({
      code: ConfigProblemCode.NOT_AN_OBJECT,
      message:
        `server ${quoteText(name)} must be an object like { "command": "…" } (a local server) ` +
        'or { "url": "https://…" } (a remote server)',
    });
    return { def: undefined, issues };
  }
  const hasCommand = Object.hasOwn(value, 'command');
  const hasUrl = Object.hasOwn(value, 'url');
  if (hasCommand && hasUrl) {
    issues.push({
      code: ConfigProblemCode.BOTH_KINDS,
      message:
        `server ${quoteText(name)} has both "command" and "url": use either command ` +
        '(a local server) or url (a remote server), not both',
    });
    return { def: undefined, issues };
  }
  if (!hasCommand && !hasUrl) {
    issues.push({
      code: ConfigProblemCode.MISSING_KIND,
      message:
        `server ${quoteText(name)} has neither "command" nor "url": add "command" with the ` +
        'program to run (a local server) or "url" with its https address (a remote server)',
    });
    return { def: undefined, issues };
  }

  // The checks beyond the schema run on the raw data too, so one pass reports everything.
  const raw = value as Record<string, unknown>;
  // The schema's record type skips a "__proto__" key without a word (the parser keeps it as an
  // own property): say so here rather than drop a variable or header silently.
  for (const field of ['env', 'headers'] as const) {
    const record = raw[field];
    if (typeof record === 'object' && record !== null && Object.hasOwn(record, '__proto__')) {
      issues.push({
        code: ConfigProblemCode.INVALID_VALUE,
        path: [field, '__proto__'],
        field: formatFieldPath([field, '__proto__']),
        message: `${prefix}${field === 'env' ? 'env name' : 'header name'} "__proto__" is not allowed: remove it`,
      });
    }
  }
  const batching = batchingProblem(raw);
  if (batching !== undefined) {
    issues.push({
      code: ConfigProblemCode.INVALID_VALUE,
      path: ['batching'],
      field: 'batching',
      message: prefix + batching,
    });
  }
  if (raw.type === 'sse') {
    issues.push({
      code: ConfigProblemCode.INVALID_VALUE,
      path: ['type'],
      field: 'type',
      message:
        `${prefix}"type": "sse" is the legacy HTTP+SSE transport, which Garuda does not ` +
        "support (MCP replaced it with Streamable HTTP): use the address of the server's " +
        'Streamable HTTP endpoint (often ending in /mcp) and "type": "http", or leave "type" out',
    });
    return { def: undefined, issues };
  }
  issues.push(...plainFieldIssues(raw, prefix));
  if (hasCommand) {
    const parsed = localServerSchema.safeParse(value);
    if (!parsed.success) issues.push(...issuesFromZod(parsed.error, 'local', prefix));
    issues.push(...templateIssues(stringValues(raw.env), 'env', prefix));
    if (!parsed.success || issues.length > 0) return { def: undefined, issues };
    const entry = parsed.data;
    return {
      def: {
        kind: 'local',
        command: entry.command,
        args: entry.args ?? [],
        env: entry.env ?? {},
        ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
        network: entry.network ?? false,
        writePaths: entry.writePaths ?? [],
        readPaths: entry.readPaths ?? [],
        timeoutMs: entry.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(entry.startTimeoutMs === undefined ? {} : { startTimeoutMs: entry.startTimeoutMs }),
        enabled: entry.enabled ?? true,
        ...controlDef(entry),
      },
      issues,
    };
  }

  const parsed = remoteServerSchema.safeParse(value);
  if (!parsed.success) issues.push(...issuesFromZod(parsed.error, 'remote', prefix));
  if (typeof raw.url === 'string') {
    const url = checkServerUrl(raw.url, source);
    if (!url.ok) {
      issues.push({ code: url.code, path: ['url'], field: 'url', message: prefix + url.message });
    }
  }
  const rawHeaders = stringValues(raw.headers);
  issues.push(
    ...headerIssues(rawHeaders, prefix),
    ...templateIssues(rawHeaders, 'headers', prefix),
    ...oauthIssues(raw.oauth, prefix),
  );
  if (!parsed.success || issues.length > 0) return { def: undefined, issues };
  const entry = parsed.data;
  return {
    def: {
      kind: 'remote',
      type: 'http',
      url: entry.url,
      headers: entry.headers ?? {},
      timeoutMs: entry.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(entry.startTimeoutMs === undefined ? {} : { startTimeoutMs: entry.startTimeoutMs }),
      enabled: entry.enabled ?? true,
      ...(entry.oauth === undefined ? {} : { oauth: entry.oauth }),
      ...controlDef(entry),
    },
    issues,
  };
}

/** The string-valued entries of a plain object (anything else: none). */
function stringValues(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string' && key !== '__proto__') out[key] = v;
  }
  return out;
}
