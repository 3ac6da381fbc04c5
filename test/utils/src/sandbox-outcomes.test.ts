import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sandboxOutcomes } from './sandbox-outcomes.js';

const FILE = "/work/it's (a) file.txt";

/** The message of a real Node error (so the table's wording is Node's, not a guess). */
function messageOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('it did not fail');
}

describe('sandboxOutcomes', () => {
  it("bubblewrap: one exact code and message each; Node's own wording", () => {
    const is = sandboxOutcomes('bwrap');
    expect(is.name).toBe('bubblewrap');
    expect(is.privateTmp).toBe(true);
    expect(is.readOnly.code).toBe('EROFS');
    expect(is.readOnly.codes).toEqual(['EROFS']);
    expect(is.readOnly.codePattern).toBe('EROFS');
    expect(is.readOnly.pattern).toBe('EROFS: read-only file system');
    expect(is.readOnly.message('open', FILE)).toBe(`EROFS: read-only file system, open '${FILE}'`);
    const inText = new RegExp(is.readOnly.messagePattern('open', FILE));
    expect(`x\nEROFS: read-only file system, open '${FILE}' (note)`).toMatch(inText);
    expect(`EROFS: read-only file system, open '/work/it's (a) fileXtxt'`).not.toMatch(inText);
    expect(is.inHidden.message('open', FILE)).toBe(
      `ENOENT: no such file or directory, open '${FILE}'`,
    );
    const missing = '/no/such/garuda/folder/x.txt';
    expect(messageOf(() => readFileSync(missing))).toBe(is.inHidden.message('open', missing));
    // No sandbox: the tests that use the table are skipped, with bubblewrap's outcomes.
    expect(sandboxOutcomes('none')).toBe(is);
  });

  it('Seatbelt: EPERM or EACCES, nothing else, with the whole message matched', () => {
    const is = sandboxOutcomes('seatbelt');
    expect(is.name).toBe('seatbelt');
    expect(is.privateTmp).toBe(false);
    for (const refusal of [is.readOnly, is.inHidden]) {
      expect(refusal.codes).toEqual(['EPERM', 'EACCES']);
      for (const code of ['EPERM', 'EACCES']) expect(code).toEqual(refusal.code);
      for (const code of ['EROFS', 'ENOENT', 'EPERMX', '']) expect(code).not.toEqual(refusal.code);
      const message = refusal.message('open', FILE);
      expect(`EPERM: operation not permitted, open '${FILE}'`).toEqual(message);
      expect(`EACCES: permission denied, open '${FILE}'`).toEqual(message);
      for (const other of [
        `EROFS: read-only file system, open '${FILE}'`,
        `EPERM: operation not permitted, open '${FILE}x'`,
        `EPERM: operation not permitted, mkdir '${FILE}'`,
        `EPERM: operation not permitted, open '/work/it's (a) fileXtxt'`,
      ]) {
        expect(other).not.toEqual(message);
      }
      const inText = new RegExp(refusal.messagePattern('open', FILE));
      expect(`x\nEACCES: permission denied, open '${FILE}' (note)`).toMatch(inText);
      expect(`x\nEROFS: read-only file system, open '${FILE}' (note)`).not.toMatch(inText);
      const line = new RegExp(`^blocked \\(${refusal.codePattern}\\)$`);
      expect('blocked (EACCES)').toMatch(line);
      expect('blocked (EROFS)').not.toMatch(line);
      expect(`${refusal.pattern}, open`).toBe(
        '(?:EPERM: operation not permitted|EACCES: permission denied), open',
      );
    }
  });
});
