import { errnoCode, kindOf, log } from '@garuda/internal';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readAuthorizationResponse } from './authorization-response.js';
import { CALLBACK_HEADERS, CALLBACK_PAGES } from './callback-page.js';
import {
  AuthorizationDeniedError,
  CallbackPortInUseError,
  callbackServerFailed,
  callbackTimeout,
  invalidOption,
  signInAborted,
} from './errors.js';
import { isPort } from './free-port.js';
import type { OAuthLogger } from './logger.js';

/** Default of {@link WaitForCallbackOptions.timeoutMs}: five minutes. */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 300_000;

// setTimeout cannot wait longer than this.
const MAX_TIMEOUT_MS = 2_147_483_647;
// A browser sends its request at once; a connection that dawdles is not a browser.
const REQUEST_TIMEOUT_MS = 10_000;

/** Options of {@link waitForCallback}. */
export interface WaitForCallbackOptions {
  /** The port of the redirect URI (`provider.callbackPort`). */
  port: number;
  /** The `state` of the sign-in in progress; any other `state` is answered 400 and ignored. */
  state: string;
  /** How long to wait for the browser. Default {@link DEFAULT_CALLBACK_TIMEOUT_MS} (5 min). */
  timeoutMs?: number;
  /** Stops waiting (Ctrl-C); the promise rejects with {@link OAuthFlowError} `OAUTH_SIGN_IN_ABORTED`. */
  signal?: AbortSignal;
  /** The loopback address to listen on: `127.0.0.1` (default) or `::1`. Nothing else. */
  host?: string;
  /** Receives a debug line for every request that was ignored (never its content). */
  logger?: OAuthLogger;
  /** Called once the server listens: the moment to open the browser. */
  onListening?: () => void;
}

/**
 * Waits for the browser to come back from the sign-in page: a one-shot HTTP server on the
 * loopback address only, serving only `GET /callback`.
 *
 * - The `state` must be exactly the expected one (the SDK does not check it): a request with
 *   another or no `state` gets 400 and is ignored, and waiting goes on. So another local
 *   program or a web page cannot inject its own code into the sign-in.
 * - An `error` response ends the wait with {@link AuthorizationDeniedError}, which shows only
 *   the short error code, never the server's `error_description`.
 * - Every page is a constant (nothing from the request is reflected), sent with
 *   `Cache-Control: no-store`, no referrer, no framing and a CSP that allows nothing.
 * - Other paths get 404, other methods 405, a `Host` that is not this computer 400.
 * - The server closes after the first valid callback, on timeout and on abort; the promise
 *   settles once the port is released.
 *
 * @param options - port, state, timeout, signal, host, logger, onListening
 * @returns the parameters for `transport.finishAuth()`: `code`, `state` and, when sent, `iss`
 * @throws {@link AuthorizationDeniedError} when the server answered with an `error`
 * @throws {@link OAuthFlowError} `OAUTH_CALLBACK_TIMEOUT` after `timeoutMs`
 * @throws {@link OAuthFlowError} `OAUTH_SIGN_IN_ABORTED` when `signal` aborts
 * @throws {@link CallbackPortInUseError} when the port is taken
 * @throws {@link OAuthFlowError} `OAUTH_CALLBACK_SERVER_FAILED` for another server failure
 * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` for an unusable option
 * @example
 * ```ts
 * const params = await waitForCallback({
 *   port: info.port,
 *   state: info.state,
 *   signal,
 *   onListening: () => void openBrowser(url),
 * });
 * await transport.finishAuth(params);
 * ```
 */
export function waitForCallback(options: WaitForCallbackOptions): Promise<URLSearchParams> {
  const { port, state, signal, logger, onListening } = checkOptions(options);
  const host = options.host ?? '127.0.0.1';
  const timeoutMs = options.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
  if (signal?.aborted) return Promise.reject(signInAborted(signal.reason));

  return new Promise<URLSearchParams>((resolve, reject) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const allowedHosts = new Set(
      [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].map((h) => h.toLowerCase()),
    );

    // Stops accepting at once; settles when every connection is gone and the port is free.
    const finish = (outcome: () => void, response?: ServerResponse): void => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      server.close(() => outcome());
      if (response && !response.writableFinished) {
        response.once('close', () => server.closeAllConnections());
      } else {
        server.closeAllConnections();
      }
    };

    const onAbort = (): void => {
      finish(() => reject(signInAborted(signal?.reason)));
    };

    const send = (
      req: IncomingMessage,
      res: ServerResponse,
      status: number,
      body: string,
      extra: Record<string, string> = {},
    ): void => {
      res.writeHead(status, { ...CALLBACK_HEADERS, ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };

    const handle = (req: IncomingMessage, res: ServerResponse): void => {
      req.resume();
      if (done) {
        send(req, res, 404, CALLBACK_PAGES.notFound);
        return;
      }
      // A web page that points a name it controls at 127.0.0.1 (DNS rebinding) sends its own
      // name here.
      if (!allowedHosts.has(String(req.headers.host ?? '').toLowerCase())) {
        log(logger, 'debug', 'ignored a request to the sign-in callback for another host name');
        send(req, res, 400, CALLBACK_PAGES.wrongState);
        return;
      }
      const target = req.url ?? '';
      let url: URL;
      try {
        // Only a plain path: "//host/…" or an absolute URL would be read as another origin.
        if (!target.startsWith('/') || target.startsWith('//')) throw new TypeError('not a path');
        url = new URL(target, `http://127.0.0.1:${port}`);
      } catch {
        send(req, res, 400, CALLBACK_PAGES.wrongState);
        return;
      }
      if (url.pathname !== '/callback') {
        send(req, res, 404, CALLBACK_PAGES.notFound);
        return;
      }
      if (req.method !== 'GET') {
        send(req, res, 405, CALLBACK_PAGES.notAllowed, { allow: 'GET' });
        return;
      }
      const result = readAuthorizationResponse(url.searchParams, state);
      switch (result.kind) {
        case 'bad-state':
          log(
            logger,
            'debug',
            `ignored a request to the sign-in callback with ${result.missing ? 'no' : 'another'} state`,
          );
          send(req, res, 400, CALLBACK_PAGES.wrongState);
          return;
        case 'malformed':
          log(logger, 'debug', `ignored a request to the sign-in callback: ${result.reason}`);
          send(req, res, 400, CALLBACK_PAGES.wrongState);
          return;
        case 'denied':
          send(req, res, 200, CALLBACK_PAGES.denied);
          finish(() => reject(new AuthorizationDeniedError(result.error)), res);
          return;
        case 'code':
          send(req, res, 200, CALLBACK_PAGES.signedIn);
          finish(() => resolve(result.params), res);
          return;
      }
    };

    const server = createServer(
      {
        requestTimeout: REQUEST_TIMEOUT_MS,
        headersTimeout: REQUEST_TIMEOUT_MS,
        keepAliveTimeout: 0,
      },
      handle,
    );
    server.on('clientError', (_error, socket) => socket.destroy());

    server.once('error', (error) => {
      const failure =
        errnoCode(error) === 'EADDRINUSE'
          ? new CallbackPortInUseError(host, port, error)
          : callbackServerFailed(host, port, error);
      if (!server.listening) {
        done = true;
        signal?.removeEventListener('abort', onAbort);
        reject(failure);
        return;
      }
      finish(() => reject(failure));
    });

    signal?.addEventListener('abort', onAbort, { once: true });
    server.listen({ port, host, exclusive: true }, () => {
      if (done) return;
      timer = setTimeout(() => finish(() => reject(callbackTimeout(timeoutMs))), timeoutMs);
      log(
        logger,
        'debug',
        `waiting for the sign-in callback on http://${host.includes(':') ? `[${host}]` : host}:${port}/callback`,
      );
      if (onListening) {
        try {
          onListening();
        } catch {
          // The caller's hook; its failure must not leave the server running unattended.
        }
      }
    });
  });
}

function checkOptions(options: WaitForCallbackOptions): WaitForCallbackOptions {
  if (typeof options !== 'object' || options === null) {
    throw invalidOption(`waitForCallback needs an options object, got ${kindOf(options)}`);
  }
  const { port, state, timeoutMs, host, signal, onListening } = options;
  if (!isPort(port)) {
    throw invalidOption(
      `port must be an integer from 1 to 65535, got ${typeof port === 'number' ? String(port) : kindOf(port)}`,
    );
  }
  if (typeof state !== 'string' || state.length < 8) {
    throw invalidOption('state must be the sign-in state: a string of at least 8 characters');
  }
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs > MAX_TIMEOUT_MS)
  ) {
    throw invalidOption(
      `timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${typeof timeoutMs === 'number' ? String(timeoutMs) : kindOf(timeoutMs)}`,
    );
  }
  if (host !== undefined && host !== '127.0.0.1' && host !== '::1') {
    throw invalidOption(
      'host must be 127.0.0.1 or ::1: the callback server listens on this computer only',
    );
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw invalidOption(`signal must be an AbortSignal, got ${kindOf(signal)}`);
  }
  if (onListening !== undefined && typeof onListening !== 'function') {
    throw invalidOption(`onListening must be a function, got ${kindOf(onListening)}`);
  }
  return options;
}
