// Masking of secret-looking values in a call preview, so an approval screen or a terminal log
// never shows a token the model is about to send. Heuristics, deliberately broad like
// mcp-config's looks-secret.ts (the same prefixes, schemes and shapes; that package is not a
// dependency of this one): a false alarm hides a value from the person approving, a miss puts a
// secret on a screen. A masked value never keeps any character of the secret, not even the last
// four: the hint says only what it looked like and how long it was.
import { Buffer } from 'node:buffer';
import type { JsonValue } from '@garuda/mcp-sanitize';
import { groupDigits } from '@garuda/internal';

/** What a masked value shows instead of the secret. */
export const MASK = '••••••';

/** Why a value or a part of it was masked; {@link NOUNS} words each. */
type SecretKind =
  | 'github'
  | 'gitlab'
  | 'slack'
  | 'aws'
  | 'npm'
  | 'google'
  | 'stripe'
  | 'api-key'
  | 'jwt'
  | 'bearer'
  | 'basic'
  | 'private-key'
  | 'url-password'
  | 'random';

const NOUNS: Readonly<Record<SecretKind, string>> = {
  github: 'a GitHub token',
  gitlab: 'a GitLab token',
  slack: 'a Slack token',
  aws: 'an AWS access key',
  npm: 'an npm token',
  google: 'a Google API key',
  stripe: 'a Stripe key',
  'api-key': 'an API key',
  jwt: 'a JSON Web Token',
  bearer: 'a bearer token',
  basic: 'basic-auth credentials',
  'private-key': 'a private key',
  'url-password': 'a password in a URL',
  random: 'a random key or token',
};

/** One secret inside a string: `[start, end)` in code units. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly kind: SecretKind;
}

// ---------------------------------------------------------------------------------------------
// Names

/** Words that make a name secret wherever they stand in it (`accessToken`, `db_password`). */
const SECRET_WORDS =
  /token|secret|passw|pwd|api[-_ ]?key|authori[sz]ation|cookie|credential|session|bearer|private/i;

/** Words that make a name secret only as a whole segment: `api_key`, not `keyboard` or `author`. */
const SECRET_SEGMENTS: ReadonlySet<string> = new Set(['key', 'auth']);
/** The letters of a word in {@link SECRET_SEGMENTS}, in any case: no name without them has one. */
const SEGMENT_LETTERS = /key|auth/i;

/** The segments of a name: camelCase, snake_case, kebab-case and other separators split it. */
function segments(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
}

/**
 * Whether an argument or property name looks like it holds a secret: it contains `token`,
 * `secret`, `password`/`passwd`, `pwd`, `apikey`/`api_key`/`api-key`, `authorization`,
 * `cookie`, `credential`, `session`, `bearer` or `private` in any case, or has `key` or `auth` as
 * a segment of its own (`key`, `privateKey`, `X-Auth`, but not `keyboard`, `monkey`, `author`).
 *
 * @param name - A cleaned key (only its first 256 characters are read).
 * @returns `true` when the value under it should be masked.
 */
export function looksSecretKey(name: string): boolean {
  const head = name.length > 256 ? name.slice(0, 256) : name;
  if (SECRET_WORDS.test(head)) return true;
  // Splitting is the costly part: a name without the letters of a segment word has none.
  return SEGMENT_LETTERS.test(head) && segments(head).some((part) => SECRET_SEGMENTS.has(part));
}

// ---------------------------------------------------------------------------------------------
// Values: each finder adds the spans of one kind of secret to `out`. Every regex is anchored by
// a lookbehind or a literal, so each runs in time linear in the text (a preview may hold 50
// strings of a megabyte each).

/**
 * Calls `fn` with each match of a global `pattern` in `text`, in order. A loop over `exec` rather
 * than `matchAll`, which copies the pattern and makes an iterator on every call: a preview checks
 * every string it shows, most of them short and holding nothing. None of the patterns here
 * matches the empty string, so each search starts past the last match.
 */
function eachMatch(pattern: RegExp, text: string, fn: (match: RegExpExecArray) => void): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) fn(match);
  pattern.lastIndex = 0;
}

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----/g;
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----/g;

/** PEM private key blocks, header to footer (to the end of the text when it has none). */
function privateKeys(text: string, out: Span[]): void {
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin !== null; begin = PEM_BEGIN.exec(text)) {
    PEM_END.lastIndex = begin.index + begin[0].length;
    const end = PEM_END.exec(text);
    const stop = end === null ? text.length : end.index + end[0].length;
    out.push({ start: begin.index, end: stop, kind: 'private-key' });
    if (end === null) return;
    PEM_BEGIN.lastIndex = stop;
  }
}

const AUTH_SCHEME = /\b(bearer|basic)[ \t]+([A-Za-z0-9._~+/=-]{8,})/gi;
/** A plain word after `Bearer` is prose ("Bearer authentication"), not a credential. */
const PLAIN_WORD = /^[A-Za-z][a-z]*$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** What `Basic` credentials decode to: printable ASCII (with a `:`, see {@link isUserPassword}). */
const PRINTABLE = /^[\x20-\x7e]*$/;

/**
 * Whether decoded `Basic` credentials are `user:password` in printable ASCII. Two linear checks:
 * one pattern `^[ -~]*:[ -~]*$` would try every `:` of a long run of them.
 */
function isUserPassword(text: string): boolean {
  return text.includes(':') && PRINTABLE.test(text);
}

/** The credential after `Bearer` or `Basic` (the scheme word stays visible). */
function authHeaders(text: string, out: Span[]): void {
  eachMatch(AUTH_SCHEME, text, (match) => {
    const scheme = (match[1] ?? '').toLowerCase();
    const credential = match[2] ?? '';
    const basic = scheme === 'basic';
    const credentialLike = basic
      ? BASE64.test(credential) &&
        isUserPassword(Buffer.from(credential, 'base64').toString('latin1'))
      : !PLAIN_WORD.test(credential);
    if (!credentialLike) return;
    const start = match.index + match[0].length - credential.length;
    out.push({ start, end: start + credential.length, kind: basic ? 'basic' : 'bearer' });
  });
}

const PREFIXED =
  /(?<![A-Za-z0-9_-])(github_pat_|gh[pousr]_|glpat-|[sprk]k_(?:live|test)_|sk-|xox[abposr]-|npm_|AIza)[A-Za-z0-9_-]{16,}/g;
const AWS_KEY = /(?<![A-Za-z0-9])A[KS]IA[0-9A-Z]{16}(?![A-Za-z0-9])/g;
const DIGIT = /[0-9]/;

function prefixKind(prefix: string): SecretKind {
  if (prefix.startsWith('gh') || prefix === 'github_pat_') return 'github';
  if (prefix === 'glpat-') return 'gitlab';
  if (prefix.startsWith('xox')) return 'slack';
  if (prefix === 'npm_') return 'npm';
  if (prefix === 'AIza') return 'google';
  return prefix === 'sk-' ? 'api-key' : 'stripe';
}

/**
 * Tokens with a prefix a service gives them (`ghp_`, `github_pat_`, `glpat-`, `sk-`,
 * `sk_live_`, `pk_live_`, `xoxb-`, `npm_`, `AIza`…), and AWS access key ids (`AKIA` + 16). The
 * rest must have a digit: `npm_config_cache_dir` is a name, not a token.
 */
function prefixedTokens(text: string, out: Span[]): void {
  eachMatch(PREFIXED, text, (match) => {
    const prefix = match[1] ?? '';
    if (!DIGIT.test(match[0].slice(prefix.length))) return;
    out.push({ start: match.index, end: match.index + match[0].length, kind: prefixKind(prefix) });
  });
  eachMatch(AWS_KEY, text, (match) => {
    out.push({ start: match.index, end: match.index + match[0].length, kind: 'aws' });
  });
}

const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;

function webTokens(text: string, out: Span[]): void {
  eachMatch(JWT, text, (match) => {
    out.push({ start: match.index, end: match.index + match[0].length, kind: 'jwt' });
  });
}

const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
const USER_END = /[\s/@:]/;
const PASSWORD_END = /[\s/@]/;

/**
 * The password of `scheme://user:password@host` (the rest of the URL stays visible). Found from
 * each `://` (a regex with a lookbehind would be tried at every character), and each scan stops
 * at the next `/`, `@` or space, so the text is read a bounded number of times.
 */
function urlPasswords(text: string, out: Span[]): void {
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    if (at === 0 || !SCHEME_CHAR.test(text.charAt(at - 1))) continue;
    let colon = at + 3;
    while (colon < text.length && !USER_END.test(text.charAt(colon))) colon++;
    if (text.charAt(colon) !== ':') continue;
    let end = colon + 1;
    while (end < text.length && !PASSWORD_END.test(text.charAt(end))) end++;
    if (text.charAt(end) === '@' && end > colon + 1) {
      out.push({ start: colon + 1, end, kind: 'url-password' });
    }
  }
}

/** The shortest run judged by its randomness. */
const MIN_RANDOM_CHARS = 32;
/** Bits per character from which a run may be random (40 hex digits, a git SHA, stay below). */
const MIN_ENTROPY_BITS = 4;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The characters of base64 and base64url (`=` included), by code unit. */
const TOKEN_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-') {
  TOKEN_CHAR[c.charCodeAt(0)] = 1;
}
const PIECES = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+|[^A-Za-z0-9]+/g;
const WORD = /^[A-Za-z]{4,}$/;
const VOWEL = /[aeiouy]/i;
const CONSONANTS = /[^aeiouy]{4}/i;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Shannon entropy of a run of ASCII, in bits per character. */
function entropy(run: string): number {
  const counts = new Uint32Array(128);
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i) & 0x7f;
    counts[c] = (counts[c] ?? 0) + 1;
  }
  let bits = 0;
  for (const count of counts) {
    if (count === 0) continue;
    const p = count / run.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Whether a run of base64-alphabet characters looks random rather than made of words. Entropy
 * alone is not enough: a camelCase identifier or a path of words reaches 4 bits per character
 * too. So a run must also be mostly not words (pieces of 4+ letters with a vowel and no four
 * consonants in a row cover under 40 % of it), or mix letters and digits the way random text
 * does (a letter next to a digit at 15 % of its places or more). Tuned on generated samples:
 * random base62, base64 and base36 runs of 32–64 characters are caught 96–100 % of the time,
 * identifiers, paths and slugs of real words 0–7 %.
 */
function looksRandom(run: string): boolean {
  if (run.length < MIN_RANDOM_CHARS || UUID.test(run)) return false;
  if (entropy(run) < MIN_ENTROPY_BITS) return false;
  // A letter next to a digit; a separator next to a digit is how words number things (`v2-3`).
  let adjacent = 0;
  for (let i = 1; i < run.length; i++) {
    const a = run.charCodeAt(i - 1);
    const b = run.charCodeAt(i);
    if ((isDigit(a) && isLetter(b)) || (isLetter(a) && isDigit(b))) adjacent += 1;
  }
  if (adjacent >= run.length * 0.15) return true;
  let words = 0;
  eachMatch(PIECES, run, ([piece]) => {
    if (WORD.test(piece) && VOWEL.test(piece) && !CONSONANTS.test(piece)) words += piece.length;
  });
  return words < run.length * 0.4;
}

/**
 * Runs of at least 32 base64-alphabet characters that look random ({@link looksRandom}). A run
 * with `/` or `=` in it is judged by its parts first, so a token at the end of a path or after
 * `NAME=` masks only the token; when no part is long enough alone (a base64 key with `/` in it),
 * the whole run is judged.
 */
function randomRuns(text: string, out: Span[]): void {
  // A loop over a table: a regex for the runs is tried again at every character of every word.
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    if (c < 128 && TOKEN_CHAR[c] === 1) {
      if (start === -1) start = i;
      continue;
    }
    if (start !== -1 && i - start >= MIN_RANDOM_CHARS) randomRun(text, start, i, out);
    start = -1;
  }
}

/** How a run is cut into parts, outermost first: `NAME=value`, then `a/b`. */
const PART_SEPARATORS = ['=', '/'] as const;

/**
 * Pushes the random-looking parts of `text[start, end)`: the parts between separators of this
 * `level` (each judged with the next level's), and the whole only when no part is.
 */
function randomRun(text: string, start: number, end: number, out: Span[], level = 0): boolean {
  const separator = PART_SEPARATORS[level];
  const run = text.slice(start, end);
  if (separator !== undefined) {
    if (!run.includes(separator)) return randomRun(text, start, end, out, level + 1);
    let found = false;
    let at = start;
    for (const part of run.split(separator)) {
      if (
        part.length >= MIN_RANDOM_CHARS &&
        randomRun(text, at, at + part.length, out, level + 1)
      ) {
        found = true;
      }
      at += part.length + 1;
    }
    if (found) return true;
  }
  if (!looksRandom(run)) return false;
  out.push({ start, end, kind: 'random' });
  return true;
}

/**
 * The secrets in a string, sorted and with overlaps merged: the first one's kind is kept, unless
 * it is only random-looking and an overlapping one says what it is.
 */
function secretSpans(text: string): Span[] {
  const found: Span[] = [];
  privateKeys(text, found);
  authHeaders(text, found);
  prefixedTokens(text, found);
  webTokens(text, found);
  urlPasswords(text, found);
  randomRuns(text, found);
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of found) {
    const last = merged.at(-1);
    if (last !== undefined && span.start < last.end) {
      merged[merged.length - 1] = {
        start: last.start,
        end: Math.max(last.end, span.end),
        kind: last.kind === 'random' ? span.kind : last.kind,
      };
    } else {
      merged.push(span);
    }
  }
  return merged;
}

/** The hint after a masked value: `[masked: looks like a GitHub token, 40 characters]`. */
function hint(what: string, chars: number): string {
  return `[masked: ${what}, ${groupDigits(chars)} character${chars === 1 ? '' : 's'}]`;
}

function looksLike(kinds: readonly SecretKind[]): string {
  const nouns = [...new Set(kinds.map((kind) => NOUNS[kind]))];
  const last = nouns.pop() ?? '';
  return `looks like ${nouns.length === 0 ? last : `${nouns.join(', ')} and ${last}`}`;
}

/** A string with its secrets masked, and the hint that says what was masked. */
interface MaskedString {
  readonly text: string;
  readonly hint: string;
}

/**
 * The string with every secret-looking part replaced by {@link MASK}, or `undefined` when it has
 * none. @internal
 */
export function maskString(text: string): MaskedString | undefined {
  const spans = secretSpans(text);
  if (spans.length === 0) return undefined;
  let out = '';
  let at = 0;
  let chars = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + MASK;
    chars += span.end - span.start;
    at = span.end;
  }
  out += text.slice(at);
  return { text: out, hint: hint(looksLike(spans.map((span) => span.kind)), chars) };
}

// ---------------------------------------------------------------------------------------------
// JSON

/**
 * Stands in for a masked value until the JSON is written: cleaned text never holds U+0001, and
 * JSON writes it as the six characters `\u0001`, so no other string can look like this.
 */
const PLACEHOLDER = /"\\u0001(\d+)\\u0001"/g;

/** A value's JSON text with its secrets masked, and how many values were masked. */
export interface MaskedJson {
  /** Pretty JSON (two spaces), each masked value written `"••••••" [masked: …]`. */
  readonly text: string;
  /** How many strings and numbers were masked (wholly or in part). */
  readonly masked: number;
}

/**
 * A cleaned JSON value as pretty JSON text with secret-looking values masked: every string and
 * number under a key that {@link looksSecretKey} (at any depth), and every part of any other
 * string that looks like a secret ({@link maskString}: the rest of the string stays visible).
 * A masked value is written as its masked JSON string followed by a hint, e.g.
 * `"••••••" [masked: looks like a GitHub token, 40 characters]`. @internal
 *
 * @param value - A value from `cleanJson` (it is not changed).
 * @param secretName - Whether the value's own name looks secret (a top-level argument's key).
 * @returns The text, not yet tag-neutralised, and the count.
 */
export function maskedJsonText(value: JsonValue, secretName: boolean): MaskedJson {
  const shown: string[] = [];
  const mark = (text: string, why: string): string => {
    shown.push(`${JSON.stringify(text)} ${why}`);
    return `\u0001${shown.length - 1}\u0001`;
  };
  const walk = (node: JsonValue, secret: boolean): JsonValue => {
    if (typeof node === 'string') {
      if (node === '') return node;
      if (secret) return mark(MASK, hint('its name looks secret', node.length));
      const masked = maskString(node);
      return masked === undefined ? node : mark(masked.text, masked.hint);
    }
    if (typeof node === 'number') {
      return secret ? mark(MASK, hint('its name looks secret', String(node).length)) : node;
    }
    if (node === null || typeof node === 'boolean') return node;
    if (Array.isArray(node)) return node.map((item) => walk(item, secret));
    const copy: { [key: string]: JsonValue } = {};
    for (const key of Object.keys(node)) {
      // defineProperty: a key `__proto__` is an own property of the cleaned copy, and stays one.
      Object.defineProperty(copy, key, {
        value: walk(node[key] ?? null, secret || looksSecretKey(key)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  };
  const walked = walk(value, secretName);
  const json = JSON.stringify(walked, null, 2);
  if (shown.length === 0) return { text: json, masked: 0 };
  return {
    text: json.replace(PLACEHOLDER, (_, index: string) => shown[Number(index)] ?? ''),
    masked: shown.length,
  };
}
