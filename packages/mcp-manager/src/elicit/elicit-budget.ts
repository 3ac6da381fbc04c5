// How many questions (elicitation forms and pages) a server may put to the user: a few during
// one request of ours, a few more in a minute, and none outside any request (SEP-2260: a server
// asks only while it answers one). Past the bound a question is declined at once, and the user
// is told once, not once per question: a flood must reach neither the screen nor the notices.

/** Default of `elicitation.perCall`: the questions one request of ours may bring. */
export const DEFAULT_ELICIT_PER_CALL = 3;

/** Default of `elicitation.perMinute`: the questions one server may ask in any minute. */
export const DEFAULT_ELICIT_PER_MINUTE = 10;

const MINUTE_MS = 60_000;

/** The bounds, as checked options. @internal */
export interface ElicitLimits {
  readonly perCall: number;
  readonly perMinute: number;
}

/**
 * A request of ours in flight on a connection, as a server's questions see it: one that arrives
 * while it runs belongs to it, and is closed when it settles. @internal
 */
export interface OpenRequest {
  /** Aborts when the request settles: its result, its failure, its abort or its time limit. */
  readonly settled: AbortSignal;
  /** The questions the server asked while it ran. */
  questions: number;
  /** The user was told that its questions went past the bound. */
  told: boolean;
}

/**
 * Whether a question may be asked, and if not, what the user is told (`tell`: now, or not again
 * yet). @internal
 */
export type Admission =
  { readonly ok: true } | { readonly ok: false; readonly notice: string; readonly tell: boolean };

/** What the user is told when a server's question is refused. */
function refusal(server: string, why: string): string {
  return `MCP server "${server}" ${why}: declined without being shown.`;
}

/**
 * The questions of every server of one manager, counted by server name (a restart does not
 * reset the minute). @internal
 */
export class ElicitBudget {
  readonly #limits: ElicitLimits;
  /** When each server's questions of the last minute were admitted. */
  readonly #asked = new Map<string, number[]>();
  /** Until when a server's refusals of the minute bound are not told again. */
  readonly #quietUntil = new Map<string, number>();

  constructor(limits: ElicitLimits) {
    this.#limits = limits;
  }

  /**
   * Counts one question of `server`, asked while `open` requests of ours ran, or says why it is
   * refused. An admitted question counts against each of them: the wire does not say which one
   * it belongs to, so a server with several requests in flight gets at most `perCall` for each.
   */
  admit(server: string, open: readonly OpenRequest[], now: number = Date.now()): Admission {
    if (open.length === 0) {
      return {
        ok: false,
        notice: refusal(
          server,
          'asked you a question while no call of this client was running (a server may ask only during one)',
        ),
        tell: this.#tellOncePerMinute(`${server}\0outside`, now),
      };
    }
    const { perCall, perMinute } = this.#limits;
    if (open.every((request) => request.questions >= perCall)) {
      const tell = open.some((request) => !request.told);
      for (const request of open) request.told = true;
      return {
        ok: false,
        notice: refusal(
          server,
          `asked you more than ${String(perCall)} questions during one call, the most it may`,
        ),
        tell,
      };
    }
    const recent = (this.#asked.get(server) ?? []).filter((at) => now - at < MINUTE_MS);
    if (recent.length >= perMinute) {
      this.#asked.set(server, recent);
      return {
        ok: false,
        notice: refusal(
          server,
          `asked you more than ${String(perMinute)} questions in a minute, the most it may`,
        ),
        tell: this.#tellOncePerMinute(server, now),
      };
    }
    recent.push(now);
    this.#asked.set(server, recent);
    for (const request of open) request.questions += 1;
    return { ok: true };
  }

  #tellOncePerMinute(key: string, now: number): boolean {
    if ((this.#quietUntil.get(key) ?? 0) > now) return false;
    this.#quietUntil.set(key, now + MINUTE_MS);
    return true;
  }
}
