import { describe, expect, it } from 'vitest';
import { ElicitBudget, type OpenRequest } from './elicit-budget.js';

function request(): OpenRequest & { readonly done: AbortController } {
  const done = new AbortController();
  return { done, settled: done.signal, questions: 0, told: false };
}

describe('ElicitBudget', () => {
  it('refuses a question outside any request, telling the user once a minute', () => {
    const budget = new ElicitBudget({ perCall: 3, perMinute: 10 });
    const first = budget.admit('s', [], 0);
    expect(first).toEqual({
      ok: false,
      notice:
        'MCP server "s" asked you a question while no call of this client was running (a server may ask only during one): declined without being shown.',
      tell: true,
    });
    expect(budget.admit('s', [], 1_000)).toMatchObject({ ok: false, tell: false });
    expect(budget.admit('s', [], 61_000)).toMatchObject({ ok: false, tell: true });
  });

  it('counts a question against every request it may belong to, and refuses when all are spent', () => {
    const budget = new ElicitBudget({ perCall: 2, perMinute: 100 });
    const a = request();
    expect(budget.admit('s', [a], 0).ok).toBe(true);
    const b = request();
    // b started later: a question now may be b's, so it is asked.
    expect(budget.admit('s', [a, b], 1).ok).toBe(true);
    expect(budget.admit('s', [a, b], 2).ok).toBe(true);
    expect([a.questions, b.questions]).toEqual([3, 2]);
    expect(budget.admit('s', [a, b], 3)).toMatchObject({ ok: false, tell: true });
    expect(budget.admit('s', [a, b], 4)).toMatchObject({ ok: false, tell: false });
    // A new request has a budget of its own.
    expect(budget.admit('s', [request()], 5).ok).toBe(true);
  });

  it('bounds each server per minute, by name, and the minute slides', () => {
    const budget = new ElicitBudget({ perCall: 100, perMinute: 2 });
    expect(budget.admit('s', [request()], 0).ok).toBe(true);
    expect(budget.admit('s', [request()], 10_000).ok).toBe(true);
    expect(budget.admit('s', [request()], 20_000)).toMatchObject({ ok: false, tell: true });
    expect(budget.admit('s', [request()], 30_000)).toMatchObject({ ok: false, tell: false });
    expect(budget.admit('other', [request()], 30_000).ok).toBe(true);
    // The first question is a minute old: one more may be asked.
    expect(budget.admit('s', [request()], 60_001).ok).toBe(true);
    expect(budget.admit('s', [request()], 60_002).ok).toBe(false);
  });
});
