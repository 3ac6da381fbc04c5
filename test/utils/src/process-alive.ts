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
