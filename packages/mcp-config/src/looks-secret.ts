// The "does this look like a secret?" checks, in one place so that the import, the CLI and the
// manager's consent screen agree. Both are heuristics and deliberately broad: a false alarm costs
// the user a variable to set, a miss copies a secret into another file.

/** Parts of a name that suggest a secret, compared upper-cased. */
const SECRET_NAME_PARTS: readonly string[] = [
  'KEY',
  'TOKEN',
  'SECRET',
  'PASS',
  'CRED',
  'AUTHORIZATION',
  'COOKIE',
];

/** `AUTH` as a word of its own (`X-Auth`, `AUTH_HEADER`), not inside `AUTHOR`. */
const AUTH_WORD = /(?:^|[^A-Z])AUTH(?:[^A-Z]|$)/;

/**
 * Whether an env variable, header or option name looks like it holds a secret: it contains
 * `KEY`, `TOKEN`, `SECRET`, `PASS`, `CRED`, `AUTHORIZATION` or `COOKIE`, or the word `AUTH`,
 * in any case (`GITHUB_TOKEN`, `api_key`, `X-Api-Key`, `PASSWORD`, `Authorization`, `--auth`).
 *
 * @param name - A variable, header or command-line option name.
 * @returns `true` when it looks secret.
 * @example
 * ```ts
 * looksSecretName('GITHUB_PERSONAL_ACCESS_TOKEN'); // true
 * looksSecretName('Authorization'); // true
 * looksSecretName('PATH'); // false
 * ```
 */
export function looksSecretName(name: string): boolean {
  if (typeof name !== 'string') return false;
  const upper = name.toUpperCase();
  return SECRET_NAME_PARTS.some((part) => upper.includes(part)) || AUTH_WORD.test(upper);
}

/** An HTTP authorization scheme followed by a credential. */
const AUTH_SCHEME = /(?:^|\s)(?:bearer|basic|token|bot|apikey)\s+[A-Za-z0-9._~+/=:-]{8,}/i;

/** Prefixes that well-known services give their tokens, followed by the token itself. */
const KNOWN_PREFIX = new RegExp(
  '(?:^|[^A-Za-z0-9])(?:' +
    [
      'ghp_',
      'gho_',
      'ghu_',
      'ghs_',
      'ghr_',
      'github_pat_',
      'glpat-',
      'glsa_',
      'sk-',
      'sk_live_',
      'sk_test_',
      'rk_live_',
      'rk_test_',
      'xox[abposr]-',
      'xapp-',
      'AKIA',
      'ASIA',
      'AIza',
      'ya29\\.',
      'npm_',
      'pypi-',
      'hf_',
      'lin_api_',
      'shpat_',
      'dop_v1_',
      'ntn_',
    ].join('|') +
    ')[A-Za-z0-9_.-]{10,}',
);

/**
 * A JSON Web Token: two base64url parts, the first starting with `{"`. It starts where a run of
 * base64url characters starts (the lookbehind), so each run is read from one place only: tried
 * from every `eyJ` inside one long run, the search would be quadratic.
 */
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;

const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * `scheme://user:password@`: a password inside a URL. The scheme is a whole run of scheme
 * characters (the lookbehind), for the same reason as {@link JWT}.
 */
const URL_PASSWORD = /(?<![A-Za-z0-9+.-])[A-Za-z0-9+.-]+:\/\/[^\s/@:]*:[^\s/@]+@/;

/** A variable's name after `$`. */
const VARIABLE_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/**
 * The text with each reference to a variable (`${X}`, `${env:X}`, `$X`), which is not itself a
 * secret, replaced by a space. By hand rather than one global regex: with many `${` and no `}`
 * after them, a regex search would read the rest of the text again from each one.
 */
function withoutReferences(text: string): string {
  let out = '';
  let from = 0;
  let closes = true;
  for (let dollar = text.indexOf('$'); dollar >= 0; dollar = text.indexOf('$', dollar + 1)) {
    if (dollar < from) continue;
    if (text[dollar + 1] === '{' && closes) {
      const close = text.indexOf('}', dollar + 2);
      // No `}` after this `${` means none after any later one either.
      closes = close >= 0;
      if (closes) {
        out += `${text.slice(from, dollar)} `;
        from = close + 1;
        continue;
      }
    }
    VARIABLE_NAME.lastIndex = dollar + 1;
    if (VARIABLE_NAME.test(text)) {
      out += `${text.slice(from, dollar)} `;
      from = VARIABLE_NAME.lastIndex;
    }
  }
  return out + text.slice(from);
}

const HEX = /^[0-9a-f]+$/;

/**
 * Whether a run of letters and digits looks random: at least 20 characters with at least two
 * digits and two letters. A commit or content hash (40 or 64 hex digits after `@`, `#`, `:`,
 * `/` or `=`, as in `pkg@sha256:…` or `git+https://…#3f2a…`) is a pin, not a secret.
 */
function randomLooking(run: string, before: string): boolean {
  if (run.length < 20) return false;
  let digits = 0;
  let letters = 0;
  for (const ch of run) {
    if (ch >= '0' && ch <= '9') digits += 1;
    else letters += 1;
  }
  if (digits < 2 || letters < 2) return false;
  if ((run.length === 40 || run.length === 64) && HEX.test(run) && '@#:/='.includes(before)) {
    return false;
  }
  return true;
}

/**
 * Whether a value looks like a secret written out: an authorization scheme with a credential
 * (`Bearer …`, `Basic …`), a token with a known prefix (`ghp_`, `github_pat_`, `glpat-`, `sk-`,
 * `xoxb-`, `AKIA`, `AIza`, `hf_`, `npm_` and others), a JSON Web Token, a private key, a URL with
 * a password, or a long random-looking run of letters and digits. `${NAME}` and `$NAME`
 * references are not secrets themselves and are skipped.
 *
 * @param value - An env, header or argument value as written.
 * @returns `true` when it looks secret.
 * @example
 * ```ts
 * looksSecretValue('ghp_16C7e42F292c6912E7710c838347Ae178B4a'); // true
 * looksSecretValue('Bearer ${LINEAR_TOKEN}'); // false: a reference
 * looksSecretValue('@modelcontextprotocol/server-github'); // false
 * ```
 */
export function looksSecretValue(value: string): boolean {
  if (typeof value !== 'string' || value === '') return false;
  // Long values are judged by a bounded window: a secret is never that long, and the checks
  // stay linear and cheap whatever a file holds.
  const text = withoutReferences(value.length > 8192 ? value.slice(0, 8192) : value);
  if (
    AUTH_SCHEME.test(text) ||
    KNOWN_PREFIX.test(text) ||
    JWT.test(text) ||
    PRIVATE_KEY.test(text) ||
    URL_PASSWORD.test(text)
  ) {
    return true;
  }
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const alnum = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (alnum) {
      if (start === -1) start = i;
    } else if (start !== -1) {
      if (randomLooking(text.slice(start, i), start > 0 ? text.charAt(start - 1) : '')) {
        return true;
      }
      start = -1;
    }
  }
  return false;
}
