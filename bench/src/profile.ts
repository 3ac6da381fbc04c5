// A CPU profile of this process while a piece of work runs, boiled down to what a note can say:
// where the time went, by function and by package.
import { Session } from 'node:inspector/promises';

/** One line of a profile summary. */
export interface ProfileEntry {
  /** A function (`name file:line`) or a package (`@modelcontextprotocol/client`, `node:internal`…). */
  readonly where: string;
  /** Self time, in ms. */
  readonly selfMs: number;
  /** Share of all samples, 0–1 (idle included). */
  readonly share: number;
}

/** What {@link profile} found. */
export interface ProfileSummary {
  /** Sampled time, in ms. */
  readonly totalMs: number;
  /** Self time per function, most first (idle and GC included as `(idle)`, `(garbage collector)`). */
  readonly functions: readonly ProfileEntry[];
  /** Self time summed per package or part of Node, most first. */
  readonly packages: readonly ProfileEntry[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pnpm) return pnpm[1] as string;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (modules) return modules[1] as string;
  const ours = /\/(packages|apps|bench|test)\/([^/]+)\//.exec(url);
  if (ours) return ours[1] === 'packages' ? `@garuda/${ours[2]}` : `${ours[1]}/${ours[2]}`;
  return url;
}

function basename(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}

function summarize(result: {
  nodes: unknown[];
  samples?: number[];
  timeDeltas?: number[];
}): ProfileSummary {
  const byId = new Map<number, ProfileNode>();
  for (const node of result.nodes as ProfileNode[]) byId.set(node.id, node);
  const samples = result.samples ?? [];
  const deltas = result.timeDeltas ?? [];
  const perFunction = new Map<string, number>();
  const perPackage = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i] as number);
    // Each sample stands for the time until the next one.
    const delta = (deltas[i + 1] ?? 0) / 1000;
    if (node === undefined) continue;
    total += delta;
    const { functionName, url, lineNumber } = node.callFrame;
    const name =
      url === ''
        ? functionName || '(anonymous)'
        : `${functionName || '(anonymous)'} ${basename(url)}:${lineNumber + 1}`;
    perFunction.set(name, (perFunction.get(name) ?? 0) + delta);
    const pkg = packageOf(url, functionName);
    perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + delta);
  }
  const entries = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .map(([where, selfMs]) => ({ where, selfMs, share: total > 0 ? selfMs / total : 0 }));
  return { totalMs: total, functions: entries(perFunction), packages: entries(perPackage) };
}

/**
 * Runs `work` under the V8 sampling profiler (100 µs interval) and sums self time per function
 * and per package.
 *
 * @param work - What to profile.
 * @returns The summary. The profiler is stopped also when `work` throws (then this throws too).
 */
export async function profile(work: () => Promise<void>): Promise<ProfileSummary> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    let failure: unknown;
    try {
      await work();
    } catch (error) {
      failure = error;
    }
    const { profile: result } = await session.post('Profiler.stop');
    if (failure !== undefined) throw failure;
    return summarize(result);
  } finally {
    await session.post('Profiler.disable').catch(() => {});
    session.disconnect();
  }
}

/**
 * Where `a` spends more CPU than `b`, per unit of work: self time per entry of `a` minus the same
 * entry of `b`, divided by `units`, largest first; idle time left out.
 *
 * @param a - The profile of the slower subject.
 * @param b - The profile of the baseline, over the same number of units.
 * @param units - E.g. calls made in each profile.
 * @param pick - `functions` or `packages`.
 * @param top - How many entries to keep.
 * @returns `[where, extra µs per unit]`, largest first.
 */
export function profileDiff(
  a: ProfileSummary,
  b: ProfileSummary,
  units: number,
  pick: 'functions' | 'packages',
  top = 6,
): [string, number][] {
  const base = new Map(b[pick].map((e) => [e.where, e.selfMs]));
  return a[pick]
    .filter((e) => e.where !== '(idle)')
    .map((e): [string, number] => [e.where, ((e.selfMs - (base.get(e.where) ?? 0)) * 1000) / units])
    .sort((x, y) => y[1] - x[1])
    .slice(0, top);
}

/** `where +12 µs`, comma-separated, for a note. */
export function diffLine(entries: readonly [string, number][], unit = 'µs'): string {
  return entries
    .map(([where, value]) => `${where} ${value >= 0 ? '+' : ''}${value.toFixed(1)} ${unit}`)
    .join(', ');
}

/** The busy (non-idle) sampled time of a profile, in ms. */
export function busyMs(summary: ProfileSummary): number {
  return summary.packages.filter((e) => e.where !== '(idle)').reduce((sum, e) => sum + e.selfMs, 0);
}
