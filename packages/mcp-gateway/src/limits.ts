// The package's limits and defaults, as one read-only record: the public name of each.
import { DEFAULT_ANSWER_TIMEOUT_MS, MAX_ANSWER_TIMEOUT_MS } from './questions/conversations.js';
import {
  HTTP_TIMEOUTS,
  MAX_HTTP_BODY_BYTES,
  MAX_HTTP_IN_FLIGHT,
  MAX_HTTP_SESSIONS,
} from './front/http.js';

/**
 * The limits and defaults of `@garuda/mcp-gateway`, read-only. Each is the value the package
 * itself uses; an option that takes a different value says so in its own documentation.
 */
export const LIMITS = Object.freeze({
  /**
   * How long a question waits for its answer by default: hosts give up on a request after about a
   * minute (a 2025 host's call stays open while its user answers), so an unanswered question ends
   * well before that, as a refusal the host can show, rather than as the host's own time-out. A
   * conversation whose question is not answered by then expires (its call is not run).
   */
  defaultAnswerTimeoutMs: DEFAULT_ANSWER_TIMEOUT_MS,
  /** The longest answer time limit `serve` takes: with the grace the gateway adds, still under a host's limit. */
  maxAnswerTimeoutMs: MAX_ANSWER_TIMEOUT_MS,
  /** The largest request body taken (the SDK's own limit is the same). */
  maxHttpBodyBytes: MAX_HTTP_BODY_BYTES,
  /**
   * Requests served at once; more are answered 503. A request takes its place only once its body
   * is read whole, so uploads that stall hold none (the request time limit ends them).
   */
  maxHttpInFlight: MAX_HTTP_IN_FLIGHT,
  /**
   * Sessions of 2025-era HTTP hosts open at once; one more `initialize` is answered 503 with what
   * to do. An idle session is ended after `httpTimeouts.sessionIdleMs`.
   */
  maxHttpSessions: MAX_HTTP_SESSIONS,
  /**
   * How long an HTTP client may take to send a request (see {@link HttpTimeouts}): the default of
   * `startHttpGateway`'s `timeouts`.
   */
  httpTimeouts: Object.freeze({ ...HTTP_TIMEOUTS }),
} as const);
