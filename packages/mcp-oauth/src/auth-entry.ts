import { kindOf } from '@garuda/internal';
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { invalidEntry } from './errors.js';
import { isPort } from './free-port.js';

/**
 * What the auth store keeps for one server. Every SDK value is stored verbatim, including the
 * `issuer` stamp the SDK puts on client information and tokens (it binds them to the
 * authorization server that issued them).
 */
export interface AuthEntry {
  /** The registered (or pre-registered, or CIMD) client, with its `issuer` stamp. */
  client?: StoredOAuthClientInformation;
  /** The tokens, with their `issuer` stamp. */
  tokens?: StoredOAuthTokens;
  /** When `tokens` were saved (ISO 8601): with `expires_in`, when they expire. */
  tokensSavedAt?: string;
  /** The callback port the client was registered with (its redirect URI). */
  port?: number;
  /** Which authorization server (RFC 9728 / RFC 8414 discovery result). */
  discovery?: OAuthDiscoveryState;
  /** The PKCE code verifier of a sign-in in progress. Removed once tokens arrive. */
  codeVerifier?: string;
  /** The `state` of a sign-in in progress. Removed once tokens arrive. */
  state?: string;
  /** When the entry last changed (ISO 8601). */
  updatedAt?: string;
}

/** The fields of {@link AuthEntry}, in the order they are written. @internal */
export const ENTRY_FIELDS = [
  'client',
  'tokens',
  'tokensSavedAt',
  'port',
  'discovery',
  'codeVerifier',
  'state',
  'updatedAt',
] as const;

const MAX_DEPTH = 32;

/**
 * Checks a value for the store and returns a deep copy, so a caller that changes its object
 * afterwards cannot change what is written. Unknown fields are refused (they would be written
 * to a file of secrets without anyone knowing what they are).
 * @throws {@link OAuthFlowError} `OAUTH_INVALID_ENTRY` naming the field, never its value
 * @internal
 */
export function toStoredEntry(value: unknown): AuthEntry {
  if (!isPlainObject(value)) throw invalidEntry(`the entry is ${kindOf(value)}`);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined) continue;
    if (!(ENTRY_FIELDS as readonly string[]).includes(key)) {
      // The name is not shown: a caller's mistake could have put a secret there.
      throw invalidEntry(
        `it has a field the store does not keep (it keeps ${ENTRY_FIELDS.join(', ')})`,
      );
    }
    out[key] = copyJson(item, key, new Set(), 0);
  }
  const problem = fieldProblem(out);
  if (problem) throw invalidEntry(problem);
  return out as AuthEntry;
}

/**
 * Reads a stored value leniently: a field of the wrong shape is dropped (a hand-edited file
 * loses that field, never the whole store), and the names of the dropped fields are returned.
 * @internal
 */
export function readStoredEntry(raw: Record<string, unknown>): {
  entry: AuthEntry;
  dropped: string[];
} {
  const entry: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const key of ENTRY_FIELDS) {
    const item = raw[key];
    if (item === undefined) continue;
    if (fieldProblem({ [key]: item })) dropped.push(key);
    else entry[key] = structuredClone(item);
  }
  return { entry: entry as AuthEntry, dropped };
}

function fieldProblem(entry: Record<string, unknown>): string | undefined {
  const { client, tokens, port, discovery, codeVerifier, state, tokensSavedAt, updatedAt } = entry;
  if (client !== undefined && !(isPlainObject(client) && typeof client.client_id === 'string')) {
    return 'client must be an object with a client_id';
  }
  if (
    tokens !== undefined &&
    !(
      isPlainObject(tokens) &&
      typeof tokens.access_token === 'string' &&
      typeof tokens.token_type === 'string'
    )
  ) {
    return 'tokens must be an object with access_token and token_type';
  }
  if (port !== undefined && !isPort(port)) return 'port must be an integer from 1 to 65535';
  if (
    discovery !== undefined &&
    !(isPlainObject(discovery) && typeof discovery.authorizationServerUrl === 'string')
  ) {
    return 'discovery must be an object with an authorizationServerUrl';
  }
  for (const [name, v] of [
    ['codeVerifier', codeVerifier],
    ['state', state],
    ['tokensSavedAt', tokensSavedAt],
    ['updatedAt', updatedAt],
  ] as const) {
    if (v !== undefined && typeof v !== 'string') return `${name} must be a string`;
  }
  return undefined;
}

/** A copy of `entry` without `fields`, for a store update that forgets them. @internal */
export function withoutFields(entry: AuthEntry, fields: readonly (keyof AuthEntry)[]): AuthEntry {
  const next = { ...entry };
  for (const field of fields) delete next[field];
  return next;
}

/** Whether `value` is a plain object (not an array, not a class instance). @internal */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function copyJson(value: unknown, field: string, ancestors: Set<object>, depth: number): unknown {
  const where = depth === 0 ? field : `a value inside ${field}`;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw invalidEntry(`${where} is not a finite number`);
      return value;
    case 'object':
      break;
    default:
      throw invalidEntry(`${where} is ${kindOf(value)}`);
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) throw invalidEntry(`${field} nests deeper than ${MAX_DEPTH}`);
  if (ancestors.has(value)) throw invalidEntry(`${where} refers back to itself`);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item: unknown) => {
        if (item === undefined) throw invalidEntry(`${where} holds an undefined item`);
        return copyJson(item, field, ancestors, depth + 1);
      });
    }
    if (!isPlainObject(value)) throw invalidEntry(`${where} is not a plain object`);
    const out: [string, unknown][] = [];
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (item === undefined) continue;
      // Key names are never shown in errors: they are the caller's data.
      out.push([key, copyJson(item, field, ancestors, depth + 1)]);
    }
    // fromEntries defines own properties, so a "__proto__" key stays data.
    return Object.fromEntries(out);
  } finally {
    ancestors.delete(value);
  }
}
