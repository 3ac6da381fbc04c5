/** One authorization URL a scripted browser was asked to open, and how far it got. */
export interface BrowserVisit {
  /** The URL the client handed over. */
  readonly authorizationUrl: string;
  /** HTTP status of the authorization server's answer. */
  readonly authorizationStatus?: number;
  /** The body of that answer when it was not a redirect (capped), to see why. */
  readonly authorizationBody?: string;
  /** The redirect target (`Location`, made absolute): the client's callback URL with its query. */
  readonly redirectedTo?: string;
  /** Status of the callback's answer (the scripted browser only, never the pasting one). */
  readonly callbackStatus?: number;
  /** Body of the callback's answer (capped). */
  readonly callbackBody?: string;
  /** Why the visit stopped early; absent when it went as far as it should. */
  readonly error?: string;
}

/** Options of {@link scriptedBrowser} and {@link browserThatPastes}. */
export interface ScriptedBrowserOptions {
  /** The fetch to use. Default: the global one. No cookies are kept either way. */
  fetch?: typeof fetch;
  /**
   * Give up on a request after this long. Default 20 000 ms: a safety net only (the fixtures
   * answer at once), generous so that a busy machine cannot decide a test.
   */
  timeoutMs?: number;
  /**
   * Host names it may visit besides the loopback ones, e.g. the `tls.hostname` of an OAuth
   * fixture. The test's `fetch` must resolve them to loopback itself (a pinned fetch with a
   * `lookup` does). Default: none.
   */
  extraHosts?: readonly string[];
}

/** A stand-in for the user's browser, usable as a client's `openBrowser`. */
export interface ScriptedBrowser {
  /**
   * Opens `url` like a browser would and resolves once the visit is over (for the scripted
   * browser: once the callback answered). Never rejects: failures are in the visit's `error`.
   */
  open(url: string | URL): Promise<BrowserVisit>;
  /** Every visit, in call order; a visit is listed as soon as `open` is called. */
  readonly visits: readonly BrowserVisit[];
}

/** A browser on "another machine": it stops at the redirect and hands its URL to the test. */
export interface PastingBrowser extends ScriptedBrowser {
  /**
   * The oldest redirect URL not taken yet, waiting for one if needed: what the user would copy
   * from the address bar and paste into the client.
   *
   * @throws Error after `timeoutMs` (default 20 000, a safety net) without a redirect
   */
  nextRedirect(options?: { timeoutMs?: number }): Promise<string>;
}

type MutableVisit = { -readonly [K in keyof BrowserVisit]: BrowserVisit[K] };

const MAX_BODY_CHARS = 64 * 1024;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A scripted browser for OAuth tests. `open(url)` GETs the authorization URL (the fixture
 * approves at once with a 302), takes the `Location`, then GETs that callback URL, i.e. the
 * client's loopback server, and records `{ authorizationUrl, redirectedTo, callbackStatus,
 * callbackBody }`. It only ever talks to `127.0.0.1`, `localhost`, `[::1]` (and `extraHosts`) over http(s), so
 * tests stay offline: any other URL, first or redirected, is refused and recorded in `error`
 * without a request. It follows exactly one redirect and no redirect of the callback.
 *
 * The client must already listen on its callback port when it calls `open` (a real browser
 * shows "can't connect" otherwise, and so does this one: `error` starts with
 * `callback unreachable`).
 *
 * @param options - see {@link ScriptedBrowserOptions}
 * @returns the browser; pass `(url) => browser.open(url)` as the client's `openBrowser`
 * @example
 * const browser = scriptedBrowser();
 * const provider = new InMemoryProvider({ redirectToAuthorization: (url) => browser.open(url) });
 * ...
 * expect(browser.visits[0]?.callbackStatus).toBe(200);
 */
export function scriptedBrowser(options: ScriptedBrowserOptions = {}): ScriptedBrowser {
  const visits: BrowserVisit[] = [];
  return {
    visits,
    async open(url) {
      const visit: MutableVisit = { authorizationUrl: String(url) };
      visits.push(visit);
      const target = await followAuthorization(visit, options);
      if (target === undefined) return visit;
      try {
        const answer = await get(target, options);
        visit.callbackStatus = answer.status;
        visit.callbackBody = capped(await answer.text());
      } catch (error) {
        visit.error = `callback unreachable: ${describe(error)}`;
      }
      return visit;
    },
  };
}

/**
 * A browser for the paste flow: `open(url)` GETs the authorization URL and records the
 * redirect, but never calls the callback; `nextRedirect()` gives the redirect URL to paste.
 * Same loopback-only rule as {@link scriptedBrowser}.
 *
 * @param options - see {@link ScriptedBrowserOptions}
 * @returns the browser
 * @example
 * const browser = browserThatPastes();
 * // the client prints the URL; the test "opens" it elsewhere and pastes the result back
 * await browser.open(printedUrl);
 * const pasted = await browser.nextRedirect();
 */
export function browserThatPastes(options: ScriptedBrowserOptions = {}): PastingBrowser {
  const visits: BrowserVisit[] = [];
  const ready: string[] = [];
  const waiting: ((url: string) => void)[] = [];
  return {
    visits,
    async open(url) {
      const visit: MutableVisit = { authorizationUrl: String(url) };
      visits.push(visit);
      const target = await followAuthorization(visit, options);
      if (target !== undefined) {
        const waiter = waiting.shift();
        if (waiter) waiter(target.href);
        else ready.push(target.href);
      }
      return visit;
    },
    nextRedirect({ timeoutMs = 20_000 } = {}) {
      const first = ready.shift();
      if (first !== undefined) return Promise.resolve(first);
      return new Promise<string>((resolve, reject) => {
        const waiter = (url: string) => {
          clearTimeout(timer);
          resolve(url);
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new Error(`browserThatPastes: no redirect within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.push(waiter);
      });
    },
  };
}

/**
 * The first leg of a visit: GET the authorization URL and return the redirect target, or
 * `undefined` after recording why there is none.
 */
async function followAuthorization(
  visit: MutableVisit,
  options: ScriptedBrowserOptions,
): Promise<URL | undefined> {
  const start = loopbackUrl(visit.authorizationUrl, options);
  if (typeof start === 'string') {
    visit.error = `refused to open: ${start}`;
    return undefined;
  }
  let answer: Response;
  try {
    answer = await get(start, options);
  } catch (error) {
    visit.error = `authorization server unreachable: ${describe(error)}`;
    return undefined;
  }
  visit.authorizationStatus = answer.status;
  const location = answer.headers.get('location');
  if (answer.status < 300 || answer.status > 399 || location === null) {
    visit.authorizationBody = capped(await answer.text().catch(() => ''));
    visit.error = `no redirect (HTTP ${answer.status})`;
    return undefined;
  }
  await answer.body?.cancel().catch(() => {});
  let target: URL;
  try {
    target = new URL(location, start);
  } catch {
    visit.error = 'redirect to an invalid URL';
    return undefined;
  }
  visit.redirectedTo = target.href;
  const checked = loopbackUrl(target.href, options);
  if (typeof checked === 'string') {
    visit.error = `refused to follow the redirect: ${checked}`;
    return undefined;
  }
  return checked;
}

/** The URL when it is http(s) on a loopback (or extra) host, else the reason it is not. */
function loopbackUrl(text: string, options: ScriptedBrowserOptions): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} URL`;
  if (!LOOPBACK_HOSTS.has(url.hostname) && !(options.extraHosts ?? []).includes(url.hostname)) {
    return 'not a loopback host';
  }
  return url;
}

function get(url: URL, options: ScriptedBrowserOptions): Promise<Response> {
  const doFetch = options.fetch ?? fetch;
  return doFetch(url, {
    redirect: 'manual',
    headers: { accept: 'text/html,*/*' },
    signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
  });
}

function capped(text: string): string {
  return text.length > MAX_BODY_CHARS ? text.slice(0, MAX_BODY_CHARS) : text;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.name : 'error';
}
