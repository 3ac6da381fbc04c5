// The manager's side of the audit log: it hands each event to the host's sink (by default the
// hash-chained `<home>/audit.jsonl` of @garuda/mcp-audit) in the background.
import type { AuditEvent, AuditSink } from '@garuda/mcp-audit';

/**
 * Events are appended in the background (a call never waits for the disk, and a sink that
 * cannot keep one never stops a call: the failure goes to the logger), and `flush` waits for what
 * is pending, bounded. @internal
 */
export class AuditRecorder {
  readonly #log: AuditSink | undefined;
  readonly #warn: (text: string) => void;
  readonly #pending = new Set<Promise<unknown>>();
  #closed = false;

  constructor(log: AuditSink | undefined, warn: (text: string) => void) {
    this.#log = log;
    this.#warn = warn;
  }

  /** Whether events' argument and result text is kept: when not, a caller need not make it. */
  get includesText(): boolean {
    return this.#log?.includesText === true;
  }

  record(event: AuditEvent): void {
    // After close() the host may remove the home: a late line would make it again.
    if (this.#log === undefined || this.#closed) return;
    const appended = this.#log.append(event).catch((error: unknown) => {
      this.#warn(
        `the audit log could not be written: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    this.#pending.add(appended);
    // `then` with both handlers rather than `finally`: the same settling, fewer promises on a
    // path every call takes twice.
    const forget = () => this.#pending.delete(appended);
    void appended.then(forget, (error: unknown) => {
      forget();
      throw error;
    });
  }

  /** Writes the pending appends now and takes no more; waits for them, at most `ms`. */
  close(ms: number): Promise<void> {
    this.#closed = true;
    return this.flush(ms);
  }

  /** Writes the pending appends now and waits for them, at most `ms`. */
  async flush(ms: number): Promise<void> {
    if (this.#pending.size === 0) return;
    void this.#log?.flush();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.#pending]),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
    clearTimeout(timer);
  }
}
