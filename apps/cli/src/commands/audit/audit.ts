import path from 'node:path';
import { readAuditLog, verifyAuditLog, type AuditRecord } from '@garuda/mcp-audit';
import { cleanLine } from '@garuda/mcp-sanitize';
import type { CommandContext } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../exit-codes.js';
import { table } from '../../format.js';

const UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: an ISO date or time (`2026-12-01`, `2026-12-01T10:00Z`), or `30m`, `12h`, `7d` ago. */
export function sinceOf(text: string | undefined, now: number): Date | undefined {
  if (text === undefined) return undefined;
  const relative = /^(\d{1,6})([mhd])$/.exec(text);
  if (relative !== null) {
    return new Date(now - Number(relative[1]) * (UNITS[relative[2] ?? 'd'] ?? 0));
  }
  const at = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)
    ? Date.parse(text)
    : Number.NaN;
  if (Number.isNaN(at)) {
    throw usageError(
      `--since ${JSON.stringify(text)} is not a time: give a date or time such as 2026-12-01 or 2026-12-01T10:00Z, or how long ago such as 30m, 12h or 7d.`,
    );
  }
  return new Date(at);
}

/** What one record says, after its kind. */
function whatOf(record: AuditRecord): string {
  switch (record.kind) {
    case 'consent':
      return `${record.decision} (${record.about === 'tools' ? 'changed tools' : 'the server'})`;
    case 'approval':
      return `${record.decision}: ${record.why}`;
    case 'call':
      return `${record.outcome}, ${String(record.durationMs)} ms, args ${record.argsSha256.slice(0, 12)}…${record.resultSha256 === undefined ? '' : `, result ${record.resultSha256.slice(0, 12)}…`}`;
    case 'sign-in':
      return record.decision;
    case 'sign-out':
      return record.outcome;
    case 'pin':
      return `${record.change === 'first' ? 'first pin' : 'changed'} (${String(record.added)} added, ${String(record.removed)} removed, ${String(record.changed)} changed): ${record.decision}, list ${record.toolsSha256.slice(0, 12)}…`;
  }
}

/**
 * `garuda-mcp audit [--verify] [--since <time>]`: the audit log (`<home>/audit.jsonl`), oldest
 * first: time, kind, server, tool and what happened. `--verify` checks the whole chain first and
 * exits 1 when a line was edited, removed, moved or cut, naming the first such line. `--json`:
 * the records (and the verdict).
 */
export async function auditCommand(
  ctx: CommandContext,
  options: { readonly verify: boolean; readonly since: string | undefined },
): Promise<number> {
  const since = sinceOf(options.since, Date.now());
  const file = path.join(ctx.globals.home, 'audit.jsonl');
  const verdict = options.verify ? await verifyAuditLog(file) : undefined;
  const records = await readAuditLog(file, since === undefined ? {} : { since });
  if (ctx.globals.json) {
    ctx.output.out(
      JSON.stringify({ file, ...(verdict === undefined ? {} : { verdict }), records }, null, 2),
    );
  } else if (records.length === 0) {
    ctx.output.out(
      since === undefined
        ? `The audit log ${file} is empty: nothing was recorded yet.`
        : `Nothing in the audit log ${file} since ${since.toISOString()}.`,
    );
  } else {
    ctx.output.out(
      table(
        ['AT', 'KIND', 'SERVER', 'TOOL', 'WHAT'],
        // The file may have been edited by hand: every cell is cleaned to one line.
        records.map((r) =>
          [r.at, r.kind, r.server, 'tool' in r ? r.tool : '', whatOf(r)].map((cell) =>
            cleanLine(cell),
          ),
        ),
      ),
    );
  }
  if (verdict === undefined) return ExitCode.OK;
  if (verdict.ok) {
    if (!ctx.globals.json) {
      ctx.output.err(
        `The audit log is unbroken: ${String(verdict.lines)} lines, each chained to the one before.`,
      );
    }
    return ExitCode.OK;
  }
  throw new CliError(
    `The audit log ${file} is broken at ${verdict.firstBad?.reason ?? 'an unknown line'}. Keep a copy of it as it is: it is the evidence.`,
    ExitCode.TOOL_ERROR,
  );
}
