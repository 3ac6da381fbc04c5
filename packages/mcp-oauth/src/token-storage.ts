import { createHash, randomBytes } from 'node:crypto';
import { isPlainObject, readStoredEntry, type AuthEntry } from './auth-entry.js';

/**
 * Where an {@link AuthStore} keeps the secrets of a sign-in (tokens, the code verifier and
 * `state` of a sign-in in progress, a client secret):
 *
 * - `file`: in the auth file itself (mode 0600). Safe from other users of the computer, not
 *   from other programs running as you, nor from a backup or a copied home folder.
 * - `keyring`: in the OS keychain (macOS Keychain, Windows Credential Manager, the Secret
 *   Service on Linux); the auth file keeps only a pointer. A copied home folder or a backup
 *   holds no token. Fails with {@link KeyringUnavailableError} when the keychain does not answer.
 * - `session`: in this process's memory only; nothing is written anywhere, and the sign-in
 *   ends with the process.
 * - `auto`: `keyring` when the keychain answers a probe (once, within its time limit), else
 *   `file`; {@link AuthStore.storage} says which and why.
 */
export type TokenStorage = 'file' | 'keyring' | 'session' | 'auto';

/** Every {@link TokenStorage}, for option checks and command lines. */
export const TOKEN_STORAGES: readonly TokenStorage[] = ['file', 'keyring', 'session', 'auto'];

/** What {@link AuthStore.storage} says: where new sign-ins are kept, and why. */
export interface TokenStorageInfo {
  /** The storage asked for (the store's `tokenStorage` option). */
  requested: TokenStorage;
  /** Where new sign-ins are kept: `auto` resolved to `keyring` or `file`. */
  mode: 'file' | 'keyring' | 'session';
  /** Whether that storage works here (`false`: `keyring` asked for, and the keychain does not answer). */
  available: boolean;
  /** Why, in one line: what answered, or why the keychain is not used. Never a secret. */
  reason: string;
}

/** The secret part of an entry, kept in the keychain as JSON. @internal */
export interface SecretPart {
  tokens?: AuthEntry['tokens'];
  codeVerifier?: string;
  state?: string;
  /** A client secret, taken out of `client` (the file keeps the rest of the client). */
  clientSecret?: string;
}

/** What the auth file keeps of an entry whose secret is in the keychain. @internal */
export interface KeyringPointer {
  store: 'keyring';
  /** The keychain account (the service is the keyring backend's). */
  account: string;
  /** Changes with every write of the secret: tells a cached secret from a newer one. */
  rev: string;
}

/** Whether an entry holds anything secret. @internal */
export function hasSecret(entry: AuthEntry | undefined): boolean {
  if (entry === undefined) return false;
  return (
    entry.tokens !== undefined ||
    entry.codeVerifier !== undefined ||
    entry.state !== undefined ||
    typeof entry.client?.client_secret === 'string'
  );
}

/** An entry cut into what the file may keep and what goes to the keychain. @internal */
export function splitSecrets(entry: AuthEntry): { plain: AuthEntry; secret: SecretPart } {
  const { tokens, codeVerifier, state, ...plain } = entry;
  const secret: SecretPart = {};
  if (tokens !== undefined) secret.tokens = tokens;
  if (codeVerifier !== undefined) secret.codeVerifier = codeVerifier;
  if (state !== undefined) secret.state = state;
  if (plain.client !== undefined && typeof plain.client.client_secret === 'string') {
    const { client_secret: clientSecret, ...client } = plain.client;
    secret.clientSecret = clientSecret;
    plain.client = client;
  }
  return { plain, secret };
}

/** The entry again, from its two parts. @internal */
export function joinSecrets(plain: AuthEntry, secret: SecretPart): AuthEntry {
  const entry: AuthEntry = { ...plain };
  if (secret.tokens !== undefined) entry.tokens = secret.tokens;
  if (secret.codeVerifier !== undefined) entry.codeVerifier = secret.codeVerifier;
  if (secret.state !== undefined) entry.state = secret.state;
  if (secret.clientSecret !== undefined && entry.client !== undefined) {
    entry.client = { ...entry.client, client_secret: secret.clientSecret };
  }
  return entry;
}

/** The text kept in the keychain for a secret part. @internal */
export function encodeSecret(rev: string, secret: SecretPart): string {
  return JSON.stringify({ v: 1, rev, ...secret });
}

/** A secret part read back from the keychain, or `undefined` when it is not one of ours. @internal */
export function decodeSecret(text: string): SecretPart | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(data) || data.v !== 1) return undefined;
  const { entry } = readStoredEntry({
    tokens: data.tokens,
    codeVerifier: data.codeVerifier,
    state: data.state,
  });
  const secret: SecretPart = {};
  if (entry.tokens !== undefined) secret.tokens = entry.tokens;
  if (entry.codeVerifier !== undefined) secret.codeVerifier = entry.codeVerifier;
  if (entry.state !== undefined) secret.state = entry.state;
  if (typeof data.clientSecret === 'string') secret.clientSecret = data.clientSecret;
  return secret;
}

/** The keychain pointer of a raw file entry, if it has a well-formed one. @internal */
export function pointerOf(raw: unknown): KeyringPointer | undefined {
  if (!isPlainObject(raw) || !isPlainObject(raw.secret)) return undefined;
  const { store, account, rev } = raw.secret;
  if (store !== 'keyring' || typeof account !== 'string' || account === '') return undefined;
  return { store, account, rev: typeof rev === 'string' ? rev : '' };
}

/**
 * The keychain account of an entry: the server name (for a person looking at their keychain),
 * a hash of the auth file's path (two homes never share an account) and a hash of the entry
 * key (scope and URL). @internal
 */
export function keyringAccount(file: string, key: string, name: string): string {
  const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
  return `${name}@${hash(file)}/${hash(key)}`;
}

/** A new revision mark for a secret written to the keychain. @internal */
export function newRev(): string {
  return randomBytes(9).toString('base64url');
}
