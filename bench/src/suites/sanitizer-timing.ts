// Timing of the sanitiser suite: subjects in turns, round by round, each sample in wall and in
// CPU time, and the reading step every subject's result goes through.

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

/** Each subject's samples: wall time, and CPU time of the process (user + system), in ms. */
export interface Samples {
  readonly wall: Map<string, number[]>;
  readonly cpu: Map<string, number[]>;
}

/**
 * Runs every subject once per round, in a rotating order so no subject always goes first, with
 * a full GC before each sample (so one subject's garbage is not collected on another's time).
 * Each sample records its wall time and the process's CPU time: on a loaded machine a sample
 * longer than the scheduler's time slice is descheduled part of the time, so its wall time grows
 * with the load while its CPU time does not.
 */
export function timeRounds(
  subjects: readonly Subject[],
  rounds: { readonly max: number; readonly min: number; readonly budgetMs: number } = {
    max: MAX_ROUNDS,
    min: MIN_ROUNDS,
    budgetMs: ROUNDS_BUDGET_MS,
  },
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
