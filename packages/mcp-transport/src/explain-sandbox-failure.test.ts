import { describe, expect, it } from 'vitest';
import {
  explainBwrapFailure,
  explainSeatbeltFailure,
  firstLine,
} from './explain-sandbox-failure.js';

describe('firstLine', () => {
  it('takes the first non-empty line, cleaned and cut', () => {
    expect(firstLine('\n  \r\n\x1b[1mbwrap:\x1b[0m\tfailed\u200b here\nnext')).toBe(
      'bwrap: failed here',
    );
    expect(firstLine('x'.repeat(500))).toBe(`${'x'.repeat(200)}…`);
    expect(firstLine('')).toBe('');
  });
});

describe('explainBwrapFailure', () => {
  it('falls back to the exit code, or the signal, when nothing is recognised', () => {
    expect(explainBwrapFailure('', { code: 3, signal: null }, undefined)).toBe(
      'bubblewrap cannot create a sandbox here (exit code 3)',
    );
    expect(explainBwrapFailure('', { code: null, signal: 'SIGSEGV' }, undefined)).toBe(
      'the bubblewrap check was stopped by SIGSEGV',
    );
  });

  it('recognises a failure string on any line, and shows the first line', () => {
    const reason = explainBwrapFailure(
      'warning: something\nbwrap: setting up uid map: Permission denied\n',
      { code: 1, signal: null },
      '0.9.0',
    );
    expect(reason).toMatch(/^AppArmor restricts unprivileged user namespaces \(Ubuntu 23\.10\+\)/);
    expect(reason).toContain('(bwrap said: "warning: something")');
  });
});

describe('explainSeatbeltFailure', () => {
  it('recognises a nested sandbox and falls back otherwise', () => {
    expect(
      explainSeatbeltFailure('sandbox_apply: Operation not permitted', { code: 71, signal: null }),
    ).toMatch(/^already running inside a macOS sandbox/);
    expect(explainSeatbeltFailure('', { code: 2, signal: null })).toBe(
      'sandbox-exec cannot create a sandbox here (exit code 2)',
    );
  });
});
