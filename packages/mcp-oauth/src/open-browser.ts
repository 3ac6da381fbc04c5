import { errnoCode, kindOf, log } from '@garuda/internal';
import { isLoopbackHostname } from '@garuda/mcp-sanitize';
import { spawn } from 'node:child_process';
import { invalidOption, quoteUntrusted, signInAborted, unsafeBrowserUrl } from './errors.js';
import type { OAuthLogger } from './logger.js';

/** The part of a child process {@link openBrowser} uses; Node's `ChildProcess` fits. */
export interface ChildProcessLike {
  once(event: string, listener: (...args: unknown[]) => void): unknown;
  unref?(): void;
}

/** Options passed to {@link ExecFileLike}: never a shell. */
export interface OpenerSpawnOptions {
  shell: false;
  stdio: 'ignore';
  detached: boolean;
  windowsHide: true;
}

/**
 * Starts a program without a shell; `child_process.spawn` and `child_process.execFile` (without
 * a callback) fit. Injected in tests to see what would run.
 */
export type ExecFileLike = (
  file: string,
  args: readonly string[],
  options: OpenerSpawnOptions,
) => ChildProcessLike;

/** Options of {@link openBrowser}. */
export interface OpenBrowserOptions {
  /**
   * Allow an `http:` address on `localhost`, `127.0.0.1` or `[::1]`. Only for a server the person
   * configured themselves: a repository's server could otherwise point the browser, with its
   * cookies, at a local service.
   */
  allowHttpLoopback?: boolean;
  /**
   * The program to open the address with instead of the system's (the CLI's `--browser`): a
   * program name or path (never split on spaces), or `[program, ...args]`. The address is
   * always the last argument. No shell is involved.
   */
  command?: string | readonly string[];
  /** Which system's opener to use. Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Starts the opener. Default `child_process.spawn`. */
  execFile?: ExecFileLike;
  /**
   * How long to wait for the opener to report failure (a non-zero exit) before counting it as
   * launched. Default 3 000 ms.
   */
  timeoutMs?: number;
  /** Stops waiting; the promise rejects with {@link OAuthFlowError} `OAUTH_SIGN_IN_ABORTED`. */
  signal?: AbortSignal;
  /** Receives a debug line when the opener is missing or fails. */
  logger?: OAuthLogger;
}

/** Default of {@link OpenBrowserOptions.timeoutMs}. */
export const DEFAULT_OPENER_TIMEOUT_MS = 3_000;

/**
 * Opens a sign-in page in the person's browser, safely:
 *
 * - only `https:` addresses (`http:` only on this computer, and only with `allowHttpLoopback`);
 *   `javascript:`, `file:`, `data:` and custom schemes are refused, and so is an address with a
 *   user name or password;
 * - the system's opener (`open` on macOS, `xdg-open` elsewhere, `rundll32
 *   url.dll,FileProtocolHandler` on Windows, so `cmd` never parses the address) or `command`,
 *   started without a shell, with the canonical address as its last argument.
 *
 * A missing or failing opener is not an error: the result is `false`, and the caller prints the
 * address anyway (it should always print it).
 *
 * @param url - the page to open
 * @param options - see {@link OpenBrowserOptions}
 * @returns whether an opener was started (and did not fail within `timeoutMs`)
 * @throws {@link OAuthFlowError} `OAUTH_UNSAFE_BROWSER_URL` for an address that must not be opened
 * @throws {@link OAuthFlowError} `OAUTH_SIGN_IN_ABORTED` when `signal` aborts
 * @example
 * ```ts
 * const opened = await openBrowser(url, { allowHttpLoopback: server.source === 'user' });
 * notice(`${opened ? 'Opened' : 'Open'} ${url.href} to sign in.`);
 * ```
 */
export async function openBrowser(
  url: string | URL,
  options: OpenBrowserOptions = {},
): Promise<boolean> {
  if (typeof options !== 'object' || options === null) {
    throw invalidOption(`options must be an object, got ${kindOf(options)}`);
  }
  const target = checkBrowserUrl(url, options.allowHttpLoopback === true);
  const argv = openerArgv(target.href, options);
  const execFile: ExecFileLike = options.execFile ?? spawn;
  const timeoutMs = options.timeoutMs ?? DEFAULT_OPENER_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs >= 0) || timeoutMs > 60_000) {
    throw invalidOption('timeoutMs must be a number of milliseconds from 0 to 60000');
  }
  const { signal, logger } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw invalidOption(`signal must be an AbortSignal, got ${kindOf(signal)}`);
  }
  if (signal?.aborted) throw signInAborted(signal.reason);

  const [file, ...args] = argv as [string, ...string[]];
  let child: ChildProcessLike;
  try {
    child = execFile(file, args, {
      shell: false,
      stdio: 'ignore',
      // The browser must outlive us; on Windows a detached child would get its own console.
      detached: (options.platform ?? process.platform) !== 'win32',
      windowsHide: true,
    });
  } catch (error) {
    log(
      logger,
      'debug',
      `could not start ${quoteUntrusted(file)} (${errnoCode(error) ?? 'error'})`,
    );
    return false;
  }

  return new Promise<boolean>((resolve, reject) => {
    let spawned = false;
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      try {
        child.unref?.();
      } catch {
        // Not ours to fail on.
      }
      fn();
    };
    const onAbort = (): void => settle(() => reject(signInAborted(signal?.reason)));
    signal?.addEventListener('abort', onAbort, { once: true });

    child.once('error', ((error: Error) => {
      log(
        logger,
        'debug',
        `could not start ${quoteUntrusted(file)} to open the browser (${errnoCode(error) ?? 'error'})`,
      );
      settle(() => resolve(false));
    }) as (...args: unknown[]) => void);
    child.once('spawn', (() => {
      spawned = true;
      timer = setTimeout(() => settle(() => resolve(true)), timeoutMs);
    }) as (...args: unknown[]) => void);
    child.once('exit', ((code: number | null) => {
      if (code !== 0) {
        log(
          logger,
          'debug',
          `${quoteUntrusted(file)} could not open the browser (exit ${String(code)})`,
        );
      }
      settle(() => resolve(code === 0 || (code === null && spawned)));
    }) as (...args: unknown[]) => void);
  });
}

/**
 * Checks the address for {@link openBrowser} and returns it parsed.
 * @internal
 */
export function checkBrowserUrl(url: unknown, allowHttpLoopback: boolean): URL {
  if (typeof url !== 'string' && !(url instanceof URL)) {
    throw unsafeBrowserUrl(`expected an address, got ${kindOf(url)}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    throw unsafeBrowserUrl('it is not a valid address');
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw unsafeBrowserUrl('the address carries a user name or password');
  }
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol === 'http:') {
    if (!isLoopbackHostname(parsed.hostname)) {
      throw unsafeBrowserUrl(
        `${quoteUntrusted(parsed.origin)} is not https (only https sign-in pages are opened)`,
      );
    }
    if (!allowHttpLoopback) {
      throw unsafeBrowserUrl(
        `${quoteUntrusted(parsed.origin)} is http on this computer, which is opened only for a ` +
          `server you configured yourself`,
      );
    }
    return parsed;
  }
  throw unsafeBrowserUrl(
    `the scheme ${quoteUntrusted(parsed.protocol)} is not https (only https sign-in pages are opened)`,
  );
}

function openerArgv(href: string, options: OpenBrowserOptions): string[] {
  const { command } = options;
  if (command !== undefined) {
    const parts = typeof command === 'string' ? [command] : command;
    if (
      !Array.isArray(parts) ||
      parts.length === 0 ||
      !parts.every((p) => typeof p === 'string') ||
      parts[0] === ''
    ) {
      throw invalidOption(
        'command must be a program name or path, or a non-empty array of strings',
      );
    }
    return [...parts, href];
  }
  const platform = options.platform ?? process.platform;
  if (platform === 'darwin') return ['open', href];
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler', href];
  return ['xdg-open', href];
}
