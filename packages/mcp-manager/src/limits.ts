// The package's limits and defaults, as one read-only record: the public name of each.
import { DEFAULT_GIVE_WAY_MS } from './common/abort.js';
import { MAX_CALL_PATHS } from './calls/call-lanes.js';
import {
  COMPLETION_TIMEOUT_MS,
  MAX_COMPLETION_VALUE_CHARS,
  MAX_COMPLETION_VALUES,
} from './offer/completion.js';
import { SPILL_MAX_AGE_MS, SPILL_MAX_BYTES, SPILL_MAX_FILES } from './calls/result-spill.js';
import { DEFAULT_ELICIT_PER_CALL, DEFAULT_ELICIT_PER_MINUTE } from './elicit/elicit-budget.js';
import { MAX_ELICIT_FIELDS } from './elicit/elicit-form.js';
import { ELICIT_TIMEOUT_MS } from './elicit/elicitation.js';
import {
  MAX_SUBSCRIPTIONS_PER_SERVER,
  RESOURCE_UPDATE_INTERVAL_MS,
} from './offer/resource-subscriptions.js';
import { AUTO_SEARCH_MIN_TOOLS } from './offer/tool-exposure.js';
import { DEFAULT_DOWNLOAD_TIMEOUT_MS, DEFAULT_START_TIMEOUT_MS } from './options.js';
import {
  MAX_SERVER_LOGS_PER_SECOND,
  PROGRESS_BURST,
  PROGRESS_INTERVAL_MS,
} from './start/server-messages.js';

/**
 * The limits and defaults of `@garuda/mcp-manager`, read-only. Each is the value the package
 * itself uses; an option that takes a different value says so in its own documentation.
 *
 * @example
 * ```ts
 * show(`a server has ${LIMITS.defaultStartTimeoutMs / 1000} s to start`); // your UI
 * ```
 */
export const LIMITS = Object.freeze({
  /** The default limit for one server's start + connect + list tools (`startTimeoutMs`): 30 s. */
  defaultStartTimeoutMs: DEFAULT_START_TIMEOUT_MS,
  /** The default limit of a package runner's download step (`downloadTimeoutMs`): 5 minutes. */
  defaultDownloadTimeoutMs: DEFAULT_DOWNLOAD_TIMEOUT_MS,
  /** How long an open form may hold up a waiting question before it is closed: 1 minute. */
  defaultGiveWayMs: DEFAULT_GIVE_WAY_MS,
  /** One progress report of a call every this many ms once its burst is spent: 100 ms. */
  progressIntervalMs: PROGRESS_INTERVAL_MS,
  /** Progress reports of a call told at once before the interval applies: 5. */
  progressBurst: PROGRESS_BURST,
  /** The most log messages told per server and second; the rest are counted and told as one. */
  maxServerLogsPerSecond: MAX_SERVER_LOGS_PER_SECOND,
  /** The most fields an elicitation form may have; a longer form is declined. */
  maxElicitFields: MAX_ELICIT_FIELDS,
  /** How long one elicitation may wait for the user before it is cancelled, in ms. */
  elicitTimeoutMs: ELICIT_TIMEOUT_MS,
  /** Default of `elicitation.perCall`: the questions one request may bring. */
  defaultElicitPerCall: DEFAULT_ELICIT_PER_CALL,
  /** Default of `elicitation.perMinute`: the questions one server may ask in any minute. */
  defaultElicitPerMinute: DEFAULT_ELICIT_PER_MINUTE,
  /** The most resources one server's subscriptions may name. */
  maxSubscriptionsPerServer: MAX_SUBSCRIPTIONS_PER_SERVER,
  /** Resource updates of one server reach the host at most once per this many ms (per URI). */
  resourceUpdateIntervalMs: RESOURCE_UPDATE_INTERVAL_MS,
  /** The most paths taken from one call's arguments; a call with more conflicts with every call. */
  maxCallPaths: MAX_CALL_PATHS,
  /** Exposure `auto` picks `search` when the catalog has more tools than this. */
  autoSearchMinTools: AUTO_SEARCH_MIN_TOOLS,
  /** How long a spill file is kept (24 hours). */
  spillMaxAgeMs: SPILL_MAX_AGE_MS,
  /** The most spill files kept. */
  spillMaxFiles: SPILL_MAX_FILES,
  /** The most bytes all spill files take together (256 MiB). */
  spillMaxBytes: SPILL_MAX_BYTES,
  /** The most values `complete()` answers. */
  maxCompletionValues: MAX_COMPLETION_VALUES,
  /** The longest value `complete()` answers, in code points (a longer one is cut with `…`). */
  maxCompletionValueChars: MAX_COMPLETION_VALUE_CHARS,
  /** How long `complete()` waits by default, in ms (never longer than the server's `timeoutMs`). */
  completionTimeoutMs: COMPLETION_TIMEOUT_MS,
} as const);
