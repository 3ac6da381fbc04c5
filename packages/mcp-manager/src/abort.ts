/**
 * Waits for `promise`, or rejects with the signal's reason as soon as `signal` aborts (the work
 * behind `promise` is not stopped by this; the caller stops it). @internal
 *
 * @param promise - The work.
 * @param signal - Stops the wait.
 * @returns What `promise` gives.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}

/**
 * Waits for `promise` at most `ms` milliseconds; after that resolves `false` (the work goes on
 * in the background, its failure ignored). @internal
 *
 * @param promise - The work.
 * @param ms - The bound.
 * @returns `true` when the work finished (either way) in time.
 */
export function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref?.();
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}

/**
 * A signal that aborts when any of `signals` does, and a function that detaches it from them
 * (so a long-lived signal does not collect listeners). @internal
 *
 * @param signals - The signals to follow (undefined ones are skipped).
 * @returns The combined controller and its `detach`.
 */
export function linkSignals(...signals: (AbortSignal | undefined)[]): {
  controller: AbortController;
  detach: () => void;
} {
  const controller = new AbortController();
  const detachers: (() => void)[] = [];
  for (const signal of signals) {
    if (signal === undefined) continue;
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    detachers.push(() => signal.removeEventListener('abort', onAbort));
  }
  return { controller, detach: () => detachers.forEach((detach) => detach()) };
}

/**
 * The signal of a call's own step: the caller's and the manager's lifetime together, or the
 * lifetime alone when the caller gave none (no controller and no listener then: the common
 * case, on every call). @internal
 */
export function callSignal(
  signal: AbortSignal | undefined,
  lifetime: AbortSignal,
): { readonly signal: AbortSignal; readonly detach: () => void } {
  if (signal === undefined) return { signal: lifetime, detach: () => {} };
  const { controller, detach } = linkSignals(signal, lifetime);
  return { signal: controller.signal, detach };
}

/**
 * Asks the host's prompter one question at a time: a terminal can show only one, and two
 * servers needing consent start at the same moment. A question whose signal aborts while it
 * waits for its turn is dropped without being asked. A prompter that shows each question where
 * it belongs (`concurrent`) gets each at once: none waits for another's answer. @internal
 */
export class QuestionQueue {
  #tail: Promise<void> = Promise.resolve();
  /** Questions asked or waiting: with none, a new one is asked at once. */
  #open = 0;
  readonly #concurrent: boolean;

  /** @param options - `concurrent`: ask every question as it comes. */
  constructor(options: { readonly concurrent?: boolean } = {}) {
    this.#concurrent = options.concurrent === true;
  }

  /**
   * Runs `ask` once every earlier question has been answered.
   *
   * @param ask - Asks the question.
   * @param signal - Cancels the wait and the question.
   * @returns The answer.
   */
  async ask<T>(ask: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    if (this.#concurrent) {
      signal?.throwIfAborted();
      return await raceAbort(
        Promise.resolve().then(() => ask()),
        signal,
      );
    }
    const previous = this.#tail;
    let release: () => void = () => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#tail = previous.then(() => mine);
    this.#open += 1;
    try {
      // Nothing asked or waiting: no turn to wait for (the usual case of a call's approval).
      if (this.#open > 1) await raceAbort(previous, signal);
      signal?.throwIfAborted();
      return await raceAbort(
        Promise.resolve().then(() => ask()),
        signal,
      );
    } finally {
      this.#open -= 1;
      release();
    }
  }
}

/** Waits for `promise` (never rejects) or until `signal` aborts, whichever comes first. @internal */
export function untilOr(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void promise.then(done, done);
  });
}
