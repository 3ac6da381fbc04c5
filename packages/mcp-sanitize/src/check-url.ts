import { quote } from '@garuda/internal';
import { cleanLine } from './clean-text.js';

/**
 * What a URL that a server supplied is for, which decides what it may be:
 *
 * - `open`: a page the user's browser opens or that something is sent to (a sign-in page, a URL
 *   elicitation, a token or revocation endpoint): `https:` only (`http:` only on this computer,
 *   and only with `allowHttpLoopback`), no user name or password, no `#fragment`.
 * - `icon`: an image to show: `https:` (same loopback rule), or a small `data:` image (PNG, JPEG,
 *   GIF or WebP — never SVG, which can carry script).
 * - `show`: an address shown as text only, never opened or fetched (a `resource_link`'s URI, a
 *   redirect named in an error): any scheme but `javascript:`, `vbscript:` and `data:`, no user
 *   name or password; `openable` says whether `open` would take it.
 */
export type UrlUse = 'open' | 'icon' | 'show';

/** Options of {@link checkUrl}. */
export interface CheckUrlOptions {
  /** What the URL is for. */
  readonly use: UrlUse;
  /** How the URL is named in a refusal's `reason`, e.g. `'the sign-in page'`. Default `'the address'`. */
  readonly what?: string;
  /**
   * Whether `http:` on this computer (`localhost`, `127.0.0.1`, `[::1]`) is allowed: only for a
   * server the user configured. Default false.
   */
  readonly allowHttpLoopback?: boolean;
  /** `icon`: the largest `data:` image, in bytes of its decoded payload. Default 65 536. */
  readonly maxDataBytes?: number;
}

/** Why {@link checkUrl} refused a URL. */
export const UrlRefusalCode = Object.freeze({
  /** Not a string or `URL`, or text that does not parse as an absolute URL. */
  NOT_A_URL: 'NOT_A_URL',
  /** Longer than {@link MAX_URL_LENGTH}. */
  TOO_LONG: 'TOO_LONG',
  /** The text holds white space, control, invisible or bidi characters (the parser would hide them). */
  HIDDEN_CHARACTERS: 'HIDDEN_CHARACTERS',
  /** `user:password@` in the address. */
  CREDENTIALS: 'CREDENTIALS',
  /** A `#fragment` on an address to open. */
  FRAGMENT: 'FRAGMENT',
  /** A scheme this use does not take. */
  SCHEME: 'SCHEME',
  /** `http:` to another computer. */
  NOT_HTTPS: 'NOT_HTTPS',
  /** `http:` on this computer, without `allowHttpLoopback`. */
  HTTP_LOOPBACK: 'HTTP_LOOPBACK',
  /** A `data:` icon that is not a PNG, JPEG, GIF or WebP image, or is larger than allowed. */
  DATA_IMAGE: 'DATA_IMAGE',
} as const);

/** One of the values of {@link UrlRefusalCode}. */
export type UrlRefusalCode = (typeof UrlRefusalCode)[keyof typeof UrlRefusalCode];

/** What {@link checkUrl} decided. */
export type UrlVerdict =
  | {
      readonly ok: true;
      /** The parsed URL. */
      readonly url: URL;
      /** The whole URL as the user should see it (`url.href`: punycode host, escapes), cleaned. */
      readonly shown: string;
      /** The host (punycode), to highlight; empty for a scheme without one (`data:`, `urn:`). */
      readonly host: string;
      /** Whether a label of the host is punycode (`xn--`): it may imitate another name. */
      readonly punycode: boolean;
      /** Whether `use: 'open'` would take it (https, or allowed loopback http). */
      readonly openable: boolean;
    }
  | {
      readonly ok: false;
      readonly code: UrlRefusalCode;
      /** One line for the user: what is wrong, the URL (or its origin) quoted and cleaned. */
      readonly reason: string;
    };

/** The longest URL {@link checkUrl} takes (a `data:` icon included). */
export const MAX_URL_LENGTH = 128 * 1024;

const DEFAULT_MAX_DATA_BYTES = 64 * 1024;
/** The host names that count as this computer (the parser has already turned `127.1` into `127.0.0.1`). */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const NEVER = new Set(['javascript:', 'vbscript:', 'data:']);
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp)(;base64)?,/i;
// What the WHATWG parser silently strips or what would hide or reorder text on a screen.
const HIDDEN = /[\s\p{Cc}\p{Cf}\u2028\u2029]/u;

function quoted(text: string): string {
  return quote(text, { max: 120, clean: cleanLine });
}

/** Whether a URL's host name names this computer, for the `http:` exception. */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.has(hostname.toLowerCase());
}

function dataBytes(href: string): number {
  const comma = href.indexOf(',');
  const payload = href.slice(comma + 1);
  if (/;base64,/i.test(href.slice(0, comma + 1))) {
    const clean = payload.replace(/%3d/gi, '=');
    // The padding counted off by hand: `/=+$/` would read a long run of `=` again from each one.
    let end = clean.length;
    while (end > 0 && clean.charCodeAt(end - 1) === 0x3d) end--;
    return Math.floor((end * 3) / 4);
  }
  return decodeURIComponentSafe(payload).length;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The one policy for every URL a server supplies: the sign-in page, a URL elicitation, an icon, a
 * `resource_link` URI. It never fetches or opens anything and never throws; a refusal says why in
 * one line, with the address quoted and cleaned.
 *
 * @param raw - The URL as the server gave it (a string or a `URL`).
 * @param options - What it is for (`use`), how to name it, and whether loopback `http:` is allowed.
 * @returns `{ ok: true, url, shown, host, punycode, openable }` or `{ ok: false, code, reason }`.
 * @example
 * ```ts
 * const page = checkUrl(request.url, { use: 'open', what: 'the page the server asks you to open' });
 * if (!page.ok) return ui.warn(page.reason);
 * ui.ask(`Open ${page.shown}?${page.punycode ? ' (its name uses punycode)' : ''}`);
 * ```
 */
export function checkUrl(raw: unknown, options: CheckUrlOptions): UrlVerdict {
  const { use, what = 'the address', allowHttpLoopback = false } = options;
  const maxData = options.maxDataBytes ?? DEFAULT_MAX_DATA_BYTES;
  const refuse = (code: UrlRefusalCode, reason: string): UrlVerdict => ({
    ok: false,
    code,
    reason,
  });
  if (typeof raw !== 'string' && !(raw instanceof URL)) {
    return refuse(UrlRefusalCode.NOT_A_URL, `${what} is missing`);
  }
  const text = String(raw);
  if (text.length > MAX_URL_LENGTH) {
    return refuse(UrlRefusalCode.TOO_LONG, `${what} is longer than ${MAX_URL_LENGTH} characters`);
  }
  if (HIDDEN.test(text)) {
    return refuse(
      UrlRefusalCode.HIDDEN_CHARACTERS,
      `${what} ${quoted(text)} holds white space or hidden characters`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse(UrlRefusalCode.NOT_A_URL, `${what} ${quoted(text)} is not a URL`);
  }
  const origin = quoted(url.origin === 'null' ? `${url.protocol}…` : url.origin);
  if (url.username !== '' || url.password !== '') {
    return refuse(UrlRefusalCode.CREDENTIALS, `${what} ${origin} carries a user name or password`);
  }
  const loopback = isLoopbackHostname(url.hostname);
  const openable =
    url.protocol === 'https:' || (url.protocol === 'http:' && loopback && allowHttpLoopback);
  if (use === 'show' && NEVER.has(url.protocol)) {
    return refuse(
      UrlRefusalCode.SCHEME,
      `${what} uses the scheme ${quoted(url.protocol)}, which is never shown`,
    );
  }
  if (use === 'icon' && url.protocol === 'data:') {
    if (!DATA_IMAGE.test(url.href) || dataBytes(url.href) > maxData) {
      return refuse(
        UrlRefusalCode.DATA_IMAGE,
        `${what} is data that is not a PNG, JPEG, GIF or WebP image of at most ${maxData} bytes`,
      );
    }
    return {
      ok: true,
      url,
      shown: cleanLine(url.href),
      host: '',
      punycode: false,
      openable: false,
    };
  }
  if (use !== 'show') {
    if (use === 'open' && url.hash !== '') {
      return refuse(UrlRefusalCode.FRAGMENT, `${what} ${origin} has a fragment (#…)`);
    }
    if (url.protocol === 'http:') {
      if (!loopback) return refuse(UrlRefusalCode.NOT_HTTPS, `${what} ${origin} is not https`);
      if (!allowHttpLoopback) {
        return refuse(
          UrlRefusalCode.HTTP_LOOPBACK,
          `${what} ${origin} is http on this computer, which is allowed only for a server you ` +
            'configured yourself',
        );
      }
    } else if (url.protocol !== 'https:') {
      return refuse(
        UrlRefusalCode.SCHEME,
        `${what} uses the scheme ${quoted(url.protocol)}, not https`,
      );
    }
  }
  const host = url.host;
  return {
    ok: true,
    url,
    shown: cleanLine(url.href),
    host,
    punycode: url.hostname.split('.').some((label) => label.startsWith('xn--')),
    openable,
  };
}
