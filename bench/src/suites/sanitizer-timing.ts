// Timing of the sanitiser suite: subjects in turns, round by round, each sample in wall time, in
// the process's CPU time and (on Linux) in the main thread's own CPU time, and the reading step
// every subject's result goes through.
import { closeSync, openSync, readSync } from 'node:fs';

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
  /**
   * CPU time of the main thread alone, the clock's own cost taken off; undefined where the
   * system does not give it (it is read from Linux's /proc).
   */
  readonly thread: Map<string, number[]> | undefined;
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
// Clocks

/** Blocks the main thread in the kernel for `ms` (no event-loop turn, no JavaScript runs). */
const parked = new Int32Array(new SharedArrayBuffer(4));
function pause(ms: number): void {
  Atomics.wait(parked, 0, 0, ms);
}

function processCpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/** How long the thread clock blocks before a read, in ms (see ThreadClock). */
const CLOCK_PAUSE_MS = 0.05;

/**
 * The main thread's own CPU time, from /proc/thread-self/schedstat (Linux): its first field is
 * the thread's run time in ns, its third how many times the thread was put on a CPU. The kernel
 * brings that run time up to date when the thread leaves the CPU or at a timer tick, so a read
 * while the thread runs can lag by up to a tick (4 ms at 250 Hz): each read first blocks the
 * thread for a moment, and is kept once the third field shows that it was off the CPU. Node 20
 * has no call for a thread's CPU time (`process.threadCpuUsage` came in Node 23.9), and
 * `process.cpuUsage` adds up every thread of the process.
 */
class ThreadClock {
  private readonly buffer = Buffer.alloc(128);
  private switches = -1;

  private constructor(private readonly fd: number) {}

  /** The clock, or undefined where the file is missing or does not read as expected. */
  static open(): ThreadClock | undefined {
    let fd: number;
    try {
      fd = openSync('/proc/thread-self/schedstat', 'r');
    } catch {
      return undefined;
    }
    const clock = new ThreadClock(fd);
    try {
      const a = clock.readMs();
      const b = clock.readMs();
      if (Number.isFinite(a) && Number.isFinite(b) && b >= a) return clock;
    } catch {
      // No usable clock: fall back to the process's CPU time.
    }
    closeSync(fd);
    return undefined;
  }

  /** The thread's CPU time so far, in ms (NaN if the file stops reading as expected). */
  readMs(): number {
    for (let attempt = 0; ; attempt++) {
      pause(CLOCK_PAUSE_MS);
      const n = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
      const [ns, , switches] = this.buffer.toString('latin1', 0, n).trim().split(' ').map(Number);
      if (ns === undefined || switches === undefined || !Number.isFinite(ns + switches))
        return Number.NaN;
      // A pause that ended before the thread left the CPU leaves the count as it was.
      if (switches !== this.switches || attempt === 4) {
        this.switches = switches;
        return ns / 1e6;
      }
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Empty intervals timed to find the thread clock's own cost. */
const OVERHEAD_INTERVALS = 31;

/**
 * What the thread clock adds to a sample (the end of one read, the start of the next, and the
 * calls between them), in ms: the median of empty samples, each after the same full GC (and
 * wait) as a real one, since the reads cost more with the caches cold from the GC than back to
 * back. The median, not the fastest: taken off every sample, a typical cost leaves an empty
 * sample at about 0, where the fastest would leave most of them above 0.
 */
function clockOverheadMs(clock: ThreadClock, settled: boolean): number {
  const empty: number[] = [];
  for (let k = 0; k < OVERHEAD_INTERVALS; k++) {
    gc?.();
    if (settled) settle();
    const h0 = clock.readMs();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const t1 = performance.now();
    process.cpuUsage(c0);
    const h1 = clock.readMs();
    if (Number.isFinite(h1 - h0) && t1 >= t0) empty.push(h1 - h0);
  }
  empty.sort((a, b) => a - b);
  return empty[Math.floor(empty.length / 2)] ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Settling

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
 * Each sample records its wall time, the process's CPU time and, on Linux, the main thread's CPU
 * time: on a loaded machine a sample longer than the scheduler's time slice is descheduled part
 * of the time, so its wall time grows with the load while its CPU time does not. The process's
 * CPU time also counts the GC's background work that follows the full GC, unless `settle` waits
 * for it first; the main thread's does not.
 */
export function timeRounds(
  subjects: readonly Subject[],
  rounds: RoundsOptions = { max: MAX_ROUNDS, min: MIN_ROUNDS, budgetMs: ROUNDS_BUDGET_MS },
): Samples {
  const wall = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  const cpu = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  const clock = ThreadClock.open();
  const thread = clock && new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  for (let r = 0; r < WARMUP_ROUNDS; r++) for (const s of subjects) s.run(s.input);
  const overhead = clock ? clockOverheadMs(clock, rounds.settle === true) : 0;
  const started = performance.now();
  for (let r = 0; r < rounds.max; r++) {
    if (r >= rounds.min && performance.now() - started > rounds.budgetMs) break;
    for (let k = 0; k < subjects.length; k++) {
      const s = subjects[(r + k) % subjects.length] as Subject;
      gc?.();
      if (rounds.settle === true) settle();
      const h0 = clock?.readMs() ?? 0;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      s.run(s.input);
      const t1 = performance.now();
      const c1 = process.cpuUsage(c0);
      const h1 = clock?.readMs() ?? 0;
      wall.get(s.name)?.push(t1 - t0);
      cpu.get(s.name)?.push((c1.user + c1.system) / 1000);
      if (Number.isFinite(h1 - h0)) thread?.get(s.name)?.push(Math.max(0, h1 - h0 - overhead));
    }
  }
  clock?.close();
  return { wall, cpu, thread };
}

// The reader's step, applied to every subject's result inside the timed region: a regex search,
// which makes V8 flatten a string built by concatenation (a rope) before it can read it, as the
// first reader of a sanitised tool result would. Both sides pay it: strip-ansi's `replace`
// returns a rope as well (its first read costs about as much as the replace, the second nothing).
export function read(text: string): string {
  /./.test(text);
  return text;
}
