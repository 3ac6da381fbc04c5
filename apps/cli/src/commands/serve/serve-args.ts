import { GATEWAY_APPROVALS, LIMITS as GATEWAY_LIMITS } from '@garuda/mcp-gateway';
import type { CommandContext } from '../../context.js';
import { usageError } from '../../exit-codes.js';
import { type CommandArgs, isSet, stringOf } from '../../shared/command.js';
import { checkedMode } from '../../shared/modes.js';
import { serveCommand } from './serve.js';

/** `--port`, checked: only with `--http`, 0 to 65535. */
function portOf(args: CommandArgs): number {
  const given = stringOf(args, 'port');
  if (given !== undefined && !isSet(args, 'http')) {
    throw usageError('--port goes with --http (serve over Streamable HTTP on 127.0.0.1).');
  }
  const port = Number(given ?? '0');
  if (!/^\d{1,5}$/.test(given ?? '0') || port > 65535) {
    throw usageError(
      `--port must be a port number from 0 (any free one) to 65535, not ${JSON.stringify(given)}.`,
    );
  }
  return port;
}

/** `--answer-timeout`, checked, in ms when given. */
function answerTimeoutOf(args: CommandArgs): { answerTimeoutMs?: number } {
  const answer = stringOf(args, 'answer-timeout');
  const answerSeconds = Number(answer ?? '0');
  const most = GATEWAY_LIMITS.maxAnswerTimeoutMs / 1000;
  if (
    answer !== undefined &&
    (!/^\d{1,2}$/.test(answer) || answerSeconds < 1 || answerSeconds > most)
  ) {
    throw usageError(
      `--answer-timeout must be a number of seconds from 1 to ${most} (a host gives up on a request after about a minute), not ${JSON.stringify(answer)}.`,
    );
  }
  return answer === undefined ? {} : { answerTimeoutMs: answerSeconds * 1000 };
}

/** `garuda-mcp serve` from its command line: the flags checked, then the gateway. */
export function serveFromArgs(ctx: CommandContext, args: CommandArgs): Promise<number> {
  const approvals = checkedMode(
    '--approvals',
    stringOf(args, 'approvals') ?? 'elicit',
    GATEWAY_APPROVALS,
  );
  const port = portOf(args);
  // Behind the gateway a pinned server is listed from its pins and the tool cache and starts on
  // its first use (the host's first tools/list waits on no start); `--start eager` starts every
  // server first, as other commands do. An unpinned or changed server starts (and is asked
  // about) as it always does: the lazy start only skips servers whose pins match the cache.
  const startMode = stringOf(args, 'start') === undefined ? 'lazy' : ctx.globals.startMode;
  return serveCommand(
    { ...ctx, globals: { ...ctx.globals, startMode } },
    approvals,
    isSet(args, 'http') ? { port } : undefined,
    answerTimeoutOf(args),
  );
}
