import { describe, expect, it } from 'vitest';
import { networkText, sandboxStatus, sandboxText, valueSourceText } from './wording.js';

describe('the standard wording of structured status fields', () => {
  it('words every sandbox kind', () => {
    expect(sandboxText({ kind: 'bwrap' })).toBe('bubblewrap');
    expect(sandboxText({ kind: 'seatbelt' })).toBe('seatbelt');
    expect(sandboxText({ kind: 'none', reason: 'bubblewrap is not installed' })).toBe(
      'no OS sandbox: bubblewrap is not installed',
    );
    expect(sandboxText({ kind: 'remote' })).toBe('remote server');
    expect(sandboxText({ kind: 'unknown' })).toBe('not checked yet');
  });

  it('words a local and a remote network', () => {
    expect(networkText({ kind: 'local', allowed: true })).toBe('on');
    expect(networkText({ kind: 'local', allowed: false })).toBe('off');
    expect(networkText({ kind: 'remote', url: 'https://x.test/mcp', signedIn: true })).toBe(
      'remote https://x.test/mcp · signed in',
    );
    expect(networkText({ kind: 'remote', url: 'https://x.test/mcp', signedIn: false })).toBe(
      'remote https://x.test/mcp · no sign-in',
    );
  });

  it('a detected sandbox becomes a status with its reason cleaned to one line', () => {
    expect(sandboxStatus(undefined)).toEqual({ kind: 'unknown' });
    expect(sandboxStatus({ kind: 'bwrap', command: '/usr/bin/bwrap' })).toEqual({ kind: 'bwrap' });
    expect(sandboxStatus({ kind: 'none', reason: 'no\nbwrap\u001b[31m here' })).toEqual({
      kind: 'none',
      reason: 'no bwrap here',
    });
  });

  it('words where a value comes from, never the value', () => {
    expect(valueSourceText({ kind: 'literal' })).toBe('literal');
    expect(valueSourceText({ kind: 'vars', names: ['A', 'NOPE'], missing: ['NOPE'] })).toBe(
      '${A}, ${NOPE} (not set)',
    );
  });
});
