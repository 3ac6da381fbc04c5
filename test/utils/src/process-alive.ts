import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

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
 * Process ids whose command line contains `mark`, zombies left out: how a test finds the
 * processes it started (give each a unique argument) and checks none is left. Linux reads
 * `/proc`; elsewhere (macOS) it asks `ps`.
 *
 * @param mark - A string from the command line, e.g. a unique argument.
 * @returns The pids, in `/proc` (or `ps`) order.
 */
export async function pidsWith(mark: string): Promise<number[]> {
  if (process.platform !== 'linux') return pidsFromPs(mark);
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

/** `pidsWith` where there is no `/proc`: `ps` lists every process with its state and command. */
async function pidsFromPs(mark: string): Promise<number[]> {
  const { stdout } = await run('ps', ['-axww', '-o', 'pid=,stat=,command='], {
    maxBuffer: 32 * 1024 * 1024,
  });
  const pids: number[] = [];
  for (const line of stdout.split('\n')) {
    const found = /^\s*(\d+)\s+(\S+)\s(.*)$/.exec(line);
    if (!found || found[2]!.startsWith('Z') || !found[3]!.includes(mark)) continue;
    pids.push(Number(found[1]));
  }
  return pids;
}
