import { readFile, readdir } from 'node:fs/promises';

/**
 * Whether a process with this pid exists (signal 0 probes without sending anything).
 * A process owned by another user still counts as alive (`EPERM`). A zombie (exited, not yet
 * reaped by its parent) also counts as alive: wait for the parent to reap it.
 *
 * @param pid - process id; `undefined`, `0` and negative numbers give `false`
 */
export function isProcessAlive(pid: number | undefined | null): boolean {
  if (pid === undefined || pid === null || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Process ids whose command line contains `mark` (Linux: `/proc`), zombies left out: how a test
 * finds the processes it started (give each a unique argument) and checks none is left.
 *
 * @param mark - A string from the command line, e.g. a unique argument.
 * @returns The pids, in `/proc` order.
 */
export async function pidsWith(mark: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      const status = await readFile(`/proc/${entry}/status`, 'utf8');
      // A zombie is dead already; it only waits to be reaped.
      if (cmdline.includes(mark) && !/^State:\s+Z/m.test(status)) pids.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}
