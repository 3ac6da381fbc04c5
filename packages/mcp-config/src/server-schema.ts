import * as z from 'zod/mini';
import { controlFields } from './control-fields.js';

// The strict schema of one server. zod's own messages are never shown: validate-server.ts turns
// each issue into a message of ours, by the path and kind of the issue. Written with `zod/mini`,
// the same checks and issues as classic zod's methods without loading all of zod: reading the
// config is on the path of every command that starts.

/** Server names become part of tool names (`mcp__<server>__<tool>`). @internal */
export const SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** Environment variable names. @internal */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** HTTP header names (RFC 9110 token). @internal */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const NO_NUL = /^[^\0]*$/;
const HEADER_VALUE = /^[^\r\n\0]*$/;
const SCOPE = /^[\x21-\x7e]+$/;

// Written as a key, "__proto__" would be stored as a prototype by most code that copies the
// record, and silently vanish; it is refused like any other bad name.
const notProto = (key: string): boolean => key !== '__proto__';

const timeoutMs = z.number().check(z.int(), z.minimum(1000), z.maximum(600_000));

/** A local server entry as written. @internal */
export const localServerSchema = z.strictObject({
  // Other clients' files say so; it changes nothing here.
  type: z.optional(z.literal('stdio')),
  command: z.string().check(z.minLength(1), z.regex(NO_NUL)),
  args: z.optional(z.array(z.string().check(z.regex(NO_NUL)))),
  env: z.optional(
    z.record(
      z.string().check(z.regex(ENV_NAME), z.refine(notProto)),
      z.string().check(z.regex(NO_NUL)),
    ),
  ),
  cwd: z.optional(z.string().check(z.minLength(1), z.regex(NO_NUL))),
  network: z.optional(z.boolean()),
  writePaths: z.optional(z.array(z.string().check(z.minLength(1), z.regex(NO_NUL)))),
  readPaths: z.optional(z.array(z.string().check(z.minLength(1), z.regex(NO_NUL)))),
  timeoutMs: z.optional(timeoutMs),
  startTimeoutMs: z.optional(timeoutMs),
  enabled: z.optional(z.boolean()),
  ...controlFields,
});

/** A remote server entry as written. @internal */
export const remoteServerSchema = z.strictObject({
  url: z.string(),
  // "streamable-http" is how some clients' files name the same transport.
  type: z.optional(z.enum(['http', 'streamable-http'])),
  headers: z.optional(
    z.record(
      z.string().check(z.regex(HEADER_NAME), z.refine(notProto)),
      z.string().check(z.regex(HEADER_VALUE)),
    ),
  ),
  timeoutMs: z.optional(timeoutMs),
  startTimeoutMs: z.optional(timeoutMs),
  enabled: z.optional(z.boolean()),
  oauth: z.optional(
    z.strictObject({
      clientId: z.optional(z.string().check(z.minLength(1), z.regex(NO_NUL))),
      clientMetadataUrl: z.optional(z.string()),
      scopes: z.optional(z.array(z.string().check(z.regex(SCOPE)))),
    }),
  ),
  ...controlFields,
});

const CONTROL_KEYS = new Set(Object.keys(controlFields));

/** Keys of each kind only, for "unknown field" hints (the control fields are in both). @internal */
export const LOCAL_KEYS: readonly string[] = Object.keys(localServerSchema.shape).filter(
  (key) => !CONTROL_KEYS.has(key),
);
/** @internal */
export const REMOTE_KEYS: readonly string[] = Object.keys(remoteServerSchema.shape).filter(
  (key) => !CONTROL_KEYS.has(key),
);

/**
 * Headers the HTTP client sets itself (framing, connection, and the MCP protocol's own); a
 * configured value would break requests or confuse the server about the session. @internal
 */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
  'mcp-session-id',
  'mcp-protocol-version',
]);

/** Default call time limit. @internal */
export const DEFAULT_TIMEOUT_MS = 60_000;
