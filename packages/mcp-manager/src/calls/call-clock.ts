// A request's time limit that stops counting while the user answers a question the server asked
// during it (elicitation): a person filling in a form must not see the call time out under them.
// The SDK's own timer cannot be paused, so the SDK gets a far backstop and this clock is the limit.

/** The backstop given to the SDK for a request this clock times (the longest `setTimeout`). @internal */
export const SDK_BACKSTOP_MS = 2 ** 31 - 1;

/** One request's clock: it runs, pauses and resumes, and calls `expire` once when time is up. @internal */
export class CallClock {
  #left: number;
  #since = 0;
  #timer: NodeJS.Timeout | undefined;
  #expired = false;
  #stopped = false;
  readonly #expire: () => void;

  /**
   * @param ms - The time the request may take, not counting pauses.
   * @param expire - Called once when the time is up.
   */
  constructor(ms: number, expire: () => void) {
    this.#left = ms;
    this.#expire = expire;
  }

  /** Whether the time ran out. */
  get expired(): boolean {
    return this.#expired;
  }

  /** Starts or resumes counting. */
  run(): void {
    if (this.#timer !== undefined || this.#expired || this.#stopped) return;
    this.#since = Date.now();
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#expired = true;
        this.#expire();
      },
      Math.max(0, this.#left),
    );
  }

  /** Stops counting until {@link run}; what was left is kept. */
  pause(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#left -= Date.now() - this.#since;
  }

  /** Ends the clock (the request settled). */
  stop(): void {
    this.#stopped = true;
    this.pause();
  }
}
