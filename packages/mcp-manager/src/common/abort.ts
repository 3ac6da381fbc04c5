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
    // Two handlers rather than `finally(…).then(…)`: one promise and one turn fewer per wait.
    const settle =
      <A>(end: (arg: A) => void) =>
      (arg: A) => {
        signal.removeEventListener('abort', onAbort);
        end(arg);
      };
    promise.then(settle(resolve), settle(reject));
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
 * What a question is to the queue: a `form` (a server's elicitation, which may stay open long
 * while a person types) or any other `question` (consent, a sign-in, a call's approval: a
 * decision a person makes at once). @internal
 */
export type QuestionKind = 'question' | 'form';

/** The default of {@link QuestionQueue}'s `giveWayMs`: one minute. @internal */
export const DEFAULT_GIVE_WAY_MS = 60_000;

/**
 * The give-way signal of a `question`: only an open form is ever asked to give way, so a
 * question's never aborts, and one shared signal spares every call's approval a controller of its
 * own. No question's `ask` listens to it (a listener on it would never run, nor be released).
 */
const NEVER_GIVES_WAY: AbortSignal = new AbortController().signal;

/** One question in the queue. */
interface Turn {
  readonly kind: QuestionKind;
  /** Whether the question may be asked (at once, when nothing else was open). */
  begun: boolean;
  /** Wakes the question waiting for its turn (set only while one waits). */
  wake: (() => void) | undefined;
  /** Aborts when an open form must give way to the questions waiting behind it (forms only). */
  readonly giveWay: AbortController | undefined;
  timer?: NodeJS.Timeout;
}

/**
 * Asks the host's prompter one question at a time: a terminal can show only one, and two
 * servers needing consent start at the same moment. A question whose signal aborts while it
 * waits for its turn is dropped without being asked. A server's form never holds the others up
 * for long: waiting questions go before waiting forms, and an open form that a question waits
 * behind gets `giveWayMs` more, then its turn's signal aborts (the form is closed and the waiting
 * question asked). A prompter that shows each question where it belongs (`concurrent`, as the
 * gateway's does: each call's question goes to that call's own request) gets each at once: none
 * waits for another's answer, so none has to give way. Written by hand: the order and the
 * give-way are the point, and they are a few lines over a list. @internal
 */
export class QuestionQueue {
  readonly #waiting: Turn[] = [];
  #current: Turn | undefined;
  readonly #giveWayMs: number;
  readonly #concurrent: boolean;

  /**
   * @param options - `giveWayMs`: how long an open form may keep a waiting question from being
   *   asked; `concurrent`: ask every question as it comes.
   */
  constructor(options: { readonly giveWayMs?: number; readonly concurrent?: boolean } = {}) {
    this.#giveWayMs = options.giveWayMs ?? DEFAULT_GIVE_WAY_MS;
    this.#concurrent = options.concurrent === true;
  }

  /**
   * Runs `ask` once it is this question's turn.
   *
   * @param ask - Asks the question; gets the signal that aborts when a form must give way
   *   (never, for a `question`).
   * @param signal - Cancels the wait and the question.
   * @param kind - What the question is (default `question`).
   * @returns The answer.
   */
  async ask<T>(
    ask: (giveWay: AbortSignal) => Promise<T>,
    signal: AbortSignal | undefined,
    kind: QuestionKind = 'question',
  ): Promise<T> {
    signal?.throwIfAborted();
    if (this.#concurrent) {
      // Nothing waits behind this question, so nothing ever asks it to give way.
      const never = kind === 'form' ? new AbortController().signal : NEVER_GIVES_WAY;
      return await raceAbort(
        Promise.resolve().then(() => ask(never)),
        signal,
      );
    }
    const turn: Turn = {
      kind,
      begun: false,
      wake: undefined,
      giveWay: kind === 'form' ? new AbortController() : undefined,
    };
    this.#waiting.push(turn);
    this.#next();
    try {
      // A question asked at once (nothing else open, the common case) has no turn to wait for.
      if (!turn.begun) {
        const started = new Promise<void>((resolve) => {
          turn.wake = resolve;
        });
        await raceAbort(started, signal);
      }
      signal?.throwIfAborted();
      const giveWay = turn.giveWay?.signal ?? NEVER_GIVES_WAY;
      return await raceAbort(
        Promise.resolve().then(() => ask(giveWay)),
        signal,
      );
    } finally {
      clearTimeout(turn.timer);
      const waiting = this.#waiting.indexOf(turn);
      if (waiting >= 0) this.#waiting.splice(waiting, 1);
      if (this.#current === turn) this.#current = undefined;
      this.#next();
    }
  }

  /** Starts the next question when none is open, or presses an open form to give way. */
  #next(): void {
    const current = this.#current;
    if (current !== undefined) {
      if (
        current.kind === 'form' &&
        current.timer === undefined &&
        this.#waiting.some((turn) => turn.kind === 'question')
      ) {
        current.timer = setTimeout(() => {
          current.timer = undefined;
          // A question withdrawn meanwhile (its call cancelled) no longer needs the turn.
          if (this.#waiting.some((turn) => turn.kind === 'question')) {
            current.giveWay?.abort(new Error('other questions were waiting'));
          }
        }, this.#giveWayMs);
      }
      return;
    }
    const question = this.#waiting.findIndex((turn) => turn.kind === 'question');
    const [turn] = this.#waiting.splice(question >= 0 ? question : 0, 1);
    if (turn === undefined) return;
    this.#current = turn;
    turn.begun = true;
    turn.wake?.();
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
