/**
 * CPU time (user + system, in milliseconds) that this process spent while `fn` ran.
 *
 * For the guards against quadratic time (ReDoS and the like): unlike the wall clock, the CPU time
 * of the test's own process does not grow when other programs share the cores, so a bound on it
 * catches a runaway algorithm without failing on a busy machine. It counts every thread of the
 * process (the garbage collector's too), so keep the bound generous: it is a guard, not a speed
 * check (speed is measured in bench/).
 *
 * @param fn - the synchronous work to measure
 * @returns the CPU milliseconds it took
 * @example
 * expect(cpuMsOf(() => tokenize('A'.repeat(50_000)))).toBeLessThan(20_000);
 */
export function cpuMsOf(fn: () => unknown): number {
  const before = process.cpuUsage();
  const result = fn();
  if (result instanceof Promise) {
    throw new TypeError('cpuMsOf measures synchronous work only; it was given a promise');
  }
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1000;
}
