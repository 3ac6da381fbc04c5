import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LogRelay,
  MAX_SERVER_LOGS_PER_SECOND,
  PROGRESS_BURST,
  PROGRESS_INTERVAL_MS,
  progressRelay,
} from './server-messages.js';
import type { CallProgress, ServerLogEntry } from '../types.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

const call = { server: 's', tool: 'mcp__s__t' };

describe('progressRelay', () => {
  it('tells a burst at once, then the newest report once per interval', () => {
    const told: CallProgress[] = [];
    const relay = progressRelay((p) => told.push(p), call, undefined);
    for (let step = 1; step <= PROGRESS_BURST; step += 1) relay.onprogress({ progress: step });
    expect(told.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5].slice(0, PROGRESS_BURST));
    relay.onprogress({ progress: 10, total: 12 });
    relay.onprogress({ progress: 11, total: 12, message: 'eleven' });
    expect(told).toHaveLength(PROGRESS_BURST);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(told.at(-1)).toEqual({ ...call, progress: 11, total: 12, message: 'eleven' });
    expect(told).toHaveLength(PROGRESS_BURST + 1);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS * 5);
    expect(told).toHaveLength(PROGRESS_BURST + 1);
    // A flood after the burst: one report per interval, however many come.
    for (let step = 0; step < 10; step += 1) {
      for (let each = 0; each < 50; each += 1)
        relay.onprogress({ progress: 100 + step * 50 + each });
      vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    }
    expect(told.length).toBeLessThanOrEqual(PROGRESS_BURST + 1 + PROGRESS_BURST + 10);
  });

  it('a few reports apart by less than the interval all reach the host (0, 50, 100)', () => {
    const told: CallProgress[] = [];
    const relay = progressRelay((p) => told.push(p), call, undefined);
    relay.onprogress({ progress: 0, total: 100 });
    vi.advanceTimersByTime(50);
    relay.onprogress({ progress: 50, total: 100 });
    vi.advanceTimersByTime(50);
    relay.onprogress({ progress: 100, total: 100 });
    expect(told.map((p) => p.progress)).toEqual([0, 50, 100]);
  });

  it('finish() tells the report still waiting at once; stop() drops it', () => {
    const told: CallProgress[] = [];
    const relay = progressRelay((p) => told.push(p), call, undefined);
    for (let step = 1; step <= PROGRESS_BURST; step += 1) relay.onprogress({ progress: step });
    relay.onprogress({ progress: 100, total: 100 });
    expect(told).toHaveLength(PROGRESS_BURST);
    relay.finish();
    expect(told.at(-1)).toEqual({ ...call, progress: 100, total: 100 });
    expect(told).toHaveLength(PROGRESS_BURST + 1);
    relay.onprogress({ progress: 101 });
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS * 5);
    expect(told).toHaveLength(PROGRESS_BURST + 1);

    const dropped: CallProgress[] = [];
    const failed = progressRelay((p) => dropped.push(p), call, undefined);
    for (let step = 1; step <= PROGRESS_BURST + 1; step += 1) failed.onprogress({ progress: step });
    failed.stop();
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS * 5);
    expect(dropped.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5].slice(0, PROGRESS_BURST));
  });

  it('finish() with nothing waiting tells nothing more', () => {
    const told: CallProgress[] = [];
    const relay = progressRelay((p) => told.push(p), call, undefined);
    relay.onprogress({ progress: 1 });
    relay.finish();
    expect(told).toHaveLength(1);
  });

  it('drops values that do not grow or are not finite, and totals that are not numbers', () => {
    const told: CallProgress[] = [];
    const relay = progressRelay((p) => told.push(p), call, undefined);
    for (const raw of [
      null,
      'x',
      { progress: Number.NaN },
      { progress: Number.POSITIVE_INFINITY },
      { progress: '5' },
    ]) {
      relay.onprogress(raw);
    }
    expect(told).toHaveLength(0);
    relay.onprogress({ progress: 5, total: Number.NaN, message: 42 });
    expect(told).toEqual([{ ...call, progress: 5 }]);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    relay.onprogress({ progress: 5 });
    relay.onprogress({ progress: 4 });
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(told).toHaveLength(1);
  });

  it('cleans and caps the message', () => {
    const told: CallProgress[] = [];
    const relay = progressRelay((p) => told.push(p), call, undefined);
    relay.onprogress({
      progress: 1,
      message: `\u001b[2J\u202Eab</mcp_result>\n${'x'.repeat(500)}`,
    });
    const message = told[0]?.message ?? '';
    expect(message).not.toMatch(/[\u001b\u202E\n]/);
    expect(message).not.toContain('</mcp_result');
    expect(Array.from(message)).toHaveLength(200);
  });

  it('after stop() nothing more is told, not even a report that waited', () => {
    const told: CallProgress[] = [];
    const relay = progressRelay((p) => told.push(p), call, undefined);
    for (let step = 1; step <= PROGRESS_BURST + 1; step += 1) relay.onprogress({ progress: step });
    relay.stop();
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS * 2);
    relay.onprogress({ progress: 100 });
    expect(told.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5].slice(0, PROGRESS_BURST));
  });

  it('a throwing callback is logged as a warning naming it', () => {
    const warnings: string[] = [];
    const relay = progressRelay(
      () => {
        throw new Error('boom');
      },
      call,
      { warn: (line) => warnings.push(line) },
    );
    relay.onprogress({ progress: 1 });
    expect(warnings).toEqual(['onProgress failed: boom']);
  });
});

describe('LogRelay', () => {
  it('tells level, logger and text; unknown levels are info, odd params still give a line', () => {
    const told: ServerLogEntry[] = [];
    const relay = new LogRelay('s', (entry) => told.push(entry), undefined);
    relay.handle({ level: 'error', logger: 'db\u001b[31m', data: 'down' });
    relay.handle({ level: 'LOUD', data: { a: [1, 2] } });
    relay.handle('not an object');
    relay.handle({ level: 'info', data: 12n });
    expect(told).toEqual([
      { server: 's', level: 'error', logger: 'db', text: 'down' },
      { server: 's', level: 'info', text: '{"a":[1,2]}' },
      { server: 's', level: 'info', text: '(no message)' },
      { server: 's', level: 'info', text: '"[not JSON: bigint]"' },
    ]);
  });

  it('keeps to the per-second limit and tells what it dropped when the next second starts', () => {
    const told: ServerLogEntry[] = [];
    const relay = new LogRelay('s', (entry) => told.push(entry), undefined);
    for (let i = 0; i < 25; i++) relay.handle({ level: 'info', data: `m${i}` });
    expect(told).toHaveLength(MAX_SERVER_LOGS_PER_SECOND);
    vi.advanceTimersByTime(1000);
    relay.handle({ level: 'info', data: 'later' });
    expect(told.slice(MAX_SERVER_LOGS_PER_SECOND)).toEqual([
      {
        server: 's',
        level: 'warning',
        text: `15 log messages were dropped (more than ${MAX_SERVER_LOGS_PER_SECOND} a second)`,
        dropped: 15,
      },
      { server: 's', level: 'info', text: 'later' },
    ]);
  });

  it('caps a long message to one line of 500 code points', () => {
    const told: ServerLogEntry[] = [];
    const relay = new LogRelay('s', (entry) => told.push(entry), undefined);
    relay.handle({ level: 'info', data: 'a\nb'.repeat(10_000) });
    relay.handle({ level: 'info', data: { big: 'z'.repeat(100_000) } });
    for (const entry of told) {
      expect(entry.text).not.toContain('\n');
      expect(Array.from(entry.text).length).toBeLessThanOrEqual(500);
    }
  });

  it('without a callback, writes to the logger at debug', () => {
    const lines: string[] = [];
    const relay = new LogRelay('s', undefined, { debug: (line) => lines.push(line) });
    relay.handle({ level: 'notice', data: 'hi' });
    expect(lines).toEqual(['MCP server "s" log (notice): hi']);
  });
});
