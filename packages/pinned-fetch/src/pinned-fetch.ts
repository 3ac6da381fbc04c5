import { fetch, Request as UndiciRequest } from 'undici';
import type {
  Agent,
  RequestInfo as UndiciRequestInfo,
  RequestInit as UndiciRequestInit,
  Response as UndiciResponse,
} from 'undici';
import { fromForeignRequest, isForeignRequest, toUndiciInit } from './foreign-fetch-input.js';
import { PinnedFetchError } from './errors.js';
import { findBlockedAddressError } from './find-blocked-address-error.js';
import { createPinnedAgent } from './pinned-agent.js';
import type { PinnedFetchOptions } from './pinned-agent-options.js';

/** What a pinned fetch accepts as its first argument: a URL, a string, or a Request (undici's or Node's global one). */
export type PinnedFetchInput = UndiciRequestInfo | globalThis.Request;

/**
 * What a pinned fetch accepts as its second argument: undici's or Node's global `RequestInit`.
 * `dispatcher` is always replaced by the pinned agent; `redirect` is narrowed (see
 * {@link createPinnedFetch}).
 */
export type PinnedFetchInit = UndiciRequestInit | globalThis.RequestInit;

/**
 * A `fetch` that connects only to checked addresses and never follows redirects, plus the
 * agent behind it. It can be assigned to `typeof fetch`, with or without the DOM lib.
 */
export interface PinnedFetch {
  /**
   * Fetches like `fetch`, through the pinned agent.
   *
   * The response is undici 7's `Response`, typed as both undici's `Response` and the global
   * `Response` (from `lib.dom` or from `@types/node`, whichever the project loads). undici's type
   * alone does not fit `typeof fetch` under the DOM lib (its `body` is `node:stream/web`'s
   * `ReadableStream`, which `lib.dom` does not accept); the global type alone would drop what
   * undici has and `@types/node` does not declare (`bytes()`). It is not an instance of Node's
   * global `Response` class (Node bundles another undici major): do not test it with
   * `instanceof Response`.
   *
   * @param input - URL, string or Request.
   * @param init - The usual fetch options.
   * @returns The response; a 3xx is returned as it is.
   */
  (input: PinnedFetchInput, init?: PinnedFetchInit): Promise<globalThis.Response & UndiciResponse>;
  /** The pinned undici `Agent` every request goes through. */
  readonly dispatcher: Agent;
  /** Closes the agent and its idle connections; waits for requests in flight. */
  close(): Promise<void>;
}

function redirectModeFor(requested: string | undefined): 'manual' | 'error' {
  // 'follow' would still check every hop (each goes through the agent), but the caller could
  // neither see nor veto where its request, method and headers were sent next; so a redirect
  // is always returned to the caller, or stays an error if they asked for that.
  return requested === 'error' ? 'error' : 'manual';
}

/**
 * undici's `TypeError: fetch failed` says why only in its `cause`: when that is one of ours (a
 * refused address anywhere in the chain, a failed lookup), the same error with the refusal in
 * its message too (`fetch failed: refused to connect to "localhost" at 127.0.0.1: …`), keeping
 * its class and `cause`. Any other error is returned as it is.
 */
function withRefusal(error: unknown): unknown {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return error;
  const ours =
    findBlockedAddressError(error) ??
    (PinnedFetchError.isInstance(error.cause) ? error.cause : undefined);
  if (ours === undefined) return error;
  return new TypeError(`fetch failed: ${ours.message}`, { cause: error.cause });
}

/**
 * Creates a `fetch` that only talks to public addresses (see {@link createPinnedAgent}) and
 * never follows redirects.
 *
 * - Every request goes through one pinned agent (the caller's `dispatcher` is ignored).
 * - `redirect` is forced to `'manual'`: a 3xx response comes back as it is, with its
 *   `Location` header readable, also when the caller asked for `'follow'` (the default).
 *   `'error'` is kept. To follow a redirect, check the new URL yourself and fetch it again with
 *   the same function, so the new host is checked too.
 * - Input may be a string, a `URL`, an undici `Request`, or Node's global `Request` (rebuilt
 *   for undici with the same method, headers, body and signal). A global `FormData` body is
 *   rebuilt the same way.
 *
 * @param options - See {@link PinnedFetchOptions}.
 * @returns A fetch function with `dispatcher` and `close()`.
 * @throws {@link PinnedFetchOptionsError} (code `FETCH_INVALID_OPTIONS`) for unusable options. A refused
 *   address rejects the returned promise with a `TypeError` whose message carries the refusal
 *   (`fetch failed: refused to connect to "localhost" at 127.0.0.1: …`) and whose cause chain
 *   holds the {@link BlockedAddressError} (see {@link findBlockedAddressError}); a failed lookup
 *   likewise, with its {@link LookupFailedError} as `cause`.
 * @example
 * ```ts
 * import { createPinnedFetch, isBlockedAddressError } from '@garuda/pinned-fetch';
 *
 * const pinnedFetch = createPinnedFetch();
 * try {
 *   const res = await pinnedFetch('https://example.com/hook', { method: 'POST', body: '{}' });
 *   ui.show(res.status);
 * } catch (e) {
 *   if (isBlockedAddressError(e)) ui.error('not a public address');
 *   else throw e;
 * } finally {
 *   await pinnedFetch.close();
 * }
 * ```
 */
export function createPinnedFetch(options?: PinnedFetchOptions): PinnedFetch {
  const dispatcher = createPinnedAgent(options);
  // No cast on the result: this file is checked with Node's globals only (types: ["node"]),
  // where tsc confirms that undici 7's Response also fits the global Response.
  const pinnedFetch = async (
    input: PinnedFetchInput,
    init?: PinnedFetchInit,
  ): Promise<globalThis.Response & UndiciResponse> => {
    const undiciInit = toUndiciInit(init);
    const request: UndiciRequestInfo = isForeignRequest(input)
      ? await fromForeignRequest(input, undiciInit.signal)
      : (input as UndiciRequestInfo);
    const requested =
      undiciInit.redirect ?? (request instanceof UndiciRequest ? request.redirect : undefined);
    try {
      return await fetch(request, {
        ...undiciInit,
        redirect: redirectModeFor(requested),
        dispatcher,
      });
    } catch (error) {
      throw withRefusal(error);
    }
  };
  return Object.defineProperties(pinnedFetch, {
    dispatcher: { value: dispatcher, enumerable: true },
    close: { value: (): Promise<void> => dispatcher.close(), enumerable: true },
  }) as PinnedFetch;
}
