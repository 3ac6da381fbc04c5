// One run of the built garuda-mcp: what it printed and how it ended.
import type { ChildProcess } from 'node:child_process';

/** No escape sequence or other control character except line breaks (what output must not hold). */
export const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** What a run printed and how it ended. */
export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Waits for a child to end and collects what it printed. */
export function collect(child: ChildProcess, input: string | undefined, timeoutMs: number) {
  return new Promise<RunResult>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`garuda-mcp did not end within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}
