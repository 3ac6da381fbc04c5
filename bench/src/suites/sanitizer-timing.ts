// Timing of the sanitiser suite: subjects in turns, round by round, each sample in wall time and
// in the process's CPU time, and the reading step every subject's result goes through.

/** Timed rounds per input; each round runs every subject once, in a rotating order. */
const MAX_ROUNDS = 60;
const MIN_ROUNDS = 15;
/** Stop adding rounds for one input after this long, so a loaded machine still finishes. */
const ROUNDS_BUDGET_MS = 30_000;
const WARMUP_ROUNDS = 3;

const gc = (globalThis as { gc?: () => void }).gc;

/** One timed subject: a name, its input and what it runs on it. */
export interface Subject {
  readonly name: string;
  readonly input: string;
  readonly run: (text: string) => string;
}

/** Each subject's samples, in ms. */
export interface Samples {
  readonly wall: Map<string, number[]>;
  /** CPU time of the whole process (user + system, every thread). */
  readonly cpu: Map<string, number[]>;
}

/** How many rounds, and whether to wait for the GC's background work before each sample. */
export interface RoundsOptions {
  readonly max: number;
  readonly min: number;
  readonly budgetMs: number;
  /** Wait, after the full GC before each sample, until the process's other threads are idle. */
  readonly settle?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Settling

/** Blocks the main thread in the kernel for `ms` (no event-loop turn, no JavaScript runs). */
const parked = new Int32Array(new SharedArrayBuffer(4));
function pause(ms: number): void {
  Atomics.wait(parked, 0, 0, ms);
}

function processCpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/** A quiet window is longer than the scheduler's tick, so a busy thread cannot hide in it. */
const QUIET_WINDOW_MS = 5;
/**
 * Other threads' CPU time in one window below which they count as idle. An idle Node process
 * still shows about 0.1–0.3 ms per window in `process.cpuUsage` (the waking of the blocked main
 * thread), against about 10 ms of sweeping after a full GC of the sanitiser suite's heap.
 */
const QUIET_CPU_MS = 0.5;
/** Give up waiting after this many windows (the sample is then taken anyway). */
const MAX_WINDOWS = 20;

/**
 * Waits, with the main thread blocked, until the process's other threads are idle: V8 finishes
 * a full GC's sweeping on background threads, and their CPU time would otherwise land in the
 * process's CPU time of the next sample (which, on 2 cores, it can double).
 */
function settle(): void {
  for (let k = 0; k < MAX_WINDOWS; k++) {
    const before = processCpuMs();
    pause(QUIET_WINDOW_MS);
    if (processCpuMs() - before < QUIET_CPU_MS) return;
  }
}

// ---------------------------------------------------------------------------------------------
// Rounds

/**
 * Runs every subject once per round, in a rotating order so no subject always goes first, with
 * a full GC before each sample (so one subject's garbage is not collected on another's time).
 * Each sample records its wall time and the process's CPU time: on a loaded machine a sample
 * longer than the scheduler's time slice is descheduled part of the time, so its wall time grows
 * with the load while its CPU time does not. The CPU time also counts the GC's background work
 * that follows the full GC, unless `settle` waits for it first.
 */
export function timeRounds(
  subjects: readonly Subject[],
  rounds: RoundsOptions = { max: MAX_ROUNDS, min: MIN_ROUNDS, budgetMs: ROUNDS_BUDGET_MS },
): Samples {
  const wall = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  const cpu = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  for (let r = 0; r < WARMUP_ROUNDS; r++) for (const s of subjects) s.run(s.input);
  const started = performance.now();
  for (let r = 0; r < rounds.max; r++) {
    if (r >= rounds.min && performance.now() - started > rounds.budgetMs) break;
    for (let k = 0; k < subjects.length; k++) {
      const s = subjects[(r + k) % subjects.length] as Subject;
      gc?.();
      if (rounds.settle === true) settle();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      s.run(s.input);
      const t1 = performance.now();
      const c1 = process.cpuUsage(c0);
      wall.get(s.name)?.push(t1 - t0);
      cpu.get(s.name)?.push((c1.user + c1.system) / 1000);
    }
  }
  return { wall, cpu };
}

// The reader's step, applied to every subject's result inside the timed region: a regex search,
// which makes V8 flatten a string built by concatenation (a rope) before it can read it, as the
// first reader of a sanitised tool result would. Both sides pay it: strip-ansi's `replace`
// returns a rope as well (its first read costs about as much as the replace, the second nothing).
export function read(text: string): string {
  /./.test(text);
  return text;
}
