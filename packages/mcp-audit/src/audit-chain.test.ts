import { access, readFile, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { useTempDir } from '@garuda/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_GENESIS } from './audit-chain.js';
import {
  AuditLog,
  readAuditLog,
  sha256Json,
  sha256Text,
  verifyAuditLog,
  type AuditEvent,
} from './index.js';

const tmp = useTempDir('garuda-audit-');
let file: string;
beforeEach(() => {
  file = path.join(tmp.path, 'home', 'audit.jsonl');
});

function call(n: number): AuditEvent {
  return {
    kind: 'call',
    server: 'fs',
    tool: 'read_file',
    outcome: 'ok',
    argsSha256: sha256Json({ n }),
    resultSha256: sha256Text(`result ${String(n)}`),
    durationMs: n,
    argsText: `secret argument ${String(n)}`,
  };
}

async function writeLog(count: number): Promise<string[]> {
  const log = new AuditLog(file);
  for (let n = 1; n <= count; n += 1) await log.append(call(n));
  return (await readFile(file, 'utf8')).trimEnd().split('\n');
}

describe('AuditLog', () => {
  it('chains each line to the one before, 0600, and keeps no text unless asked', async () => {
    const lines = await writeLog(3);
    expect(lines).toHaveLength(3);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(records[0]?.prev).toBe(AUDIT_GENESIS);
    expect(records[1]?.prev).toBe(sha256Text(lines[0] ?? ''));
    expect(records[2]?.prev).toBe(sha256Text(lines[1] ?? ''));
    expect(lines.join('\n')).not.toContain('secret argument');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 3 });

    const withText = new AuditLog(file, { includeText: true });
    const record = await withText.append(call(4));
    expect(record).toMatchObject({ seq: 4, argsText: 'secret argument 4' });
  });

  it('hashes the same arguments in another key order the same', () => {
    expect(sha256Json({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(
      sha256Json({ b: [1, { d: 3, c: 2 }], a: 1 }),
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(sha256Json(cyclic)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('writes the events that wait together in one batch, in order, and the chain holds', async () => {
    const log = new AuditLog(file);
    const records = await Promise.all(
      Array.from({ length: 300 }, (_, n) => log.append(call(n + 1))),
    );
    expect(records.map((record) => record.seq)).toEqual(
      Array.from({ length: 300 }, (_, n) => n + 1),
    );
    // One write stamps one time: 300 events take at most two writes (256 at the most in one).
    expect(new Set(records.map((record) => record.at)).size).toBeLessThanOrEqual(2);
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 300 });
    const head = JSON.parse(await readFile(`${file}.head`, 'utf8')) as { seq: number };
    expect(head.seq).toBe(300);
  });

  it('with batchMs, an event waits for its batch; flush() writes it at once', async () => {
    const log = new AuditLog(file, { batchMs: 60_000 });
    let written = false;
    const appended = log.append(call(1)).then((record) => {
      written = true;
      return record;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written).toBe(false);
    await log.flush();
    expect((await appended).seq).toBe(1);
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 1 });
  });

  it('writes nothing when nothing waits: no empty line, no folder, and the chain goes on at 1', async () => {
    const log = new AuditLog(file);
    await log.flush();
    await log.flush();
    // Not even the folder: a host that removes its home after close() finds nothing made again.
    await expect(access(path.dirname(file))).rejects.toThrow(/ENOENT/);
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 0 });

    expect((await log.append(call(1))).seq).toBe(1);
    await log.flush();
    await new AuditLog(file).flush();
    expect((await new AuditLog(file).append(call(2))).seq).toBe(2);
    expect(await readFile(file, 'utf8')).not.toMatch(/\n\n|^\n/);
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 2 });
  });

  it("goes on from the file's last line even when it was stamped later than this clock", async () => {
    // Another process's clock ahead (or this one's set back) must not read as reordered lines.
    const lines = await writeLog(2);
    const ahead = JSON.stringify({
      ...(JSON.parse(lines[1] ?? '{}') as Record<string, unknown>),
      seq: 3,
      at: '2999-01-01T00:00:00.000Z',
      prev: sha256Text(lines[1] ?? ''),
    });
    await writeFile(file, `${lines.join('\n')}\n${ahead}\n`);
    await writeFile(`${file}.head`, JSON.stringify({ seq: 3, sha256: sha256Text(ahead) }));
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 3 });
    const record = await new AuditLog(file).append(call(4));
    expect(record).toMatchObject({ seq: 4, at: '2999-01-01T00:00:00.000Z' });
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 4 });
  });

  it('keeps the chain whole when two logs on one file append at once (the file lock)', async () => {
    await writeLog(1);
    // Two instances have separate queues: only the lock on the file (the one other processes
    // take too) keeps their lines from chaining to the same line.
    const a = new AuditLog(file);
    const b = new AuditLog(file);
    await Promise.all(
      Array.from({ length: 40 }, (_, n) => (n % 2 === 0 ? a : b).append(call(n + 2))),
    );
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 41 });
  });
});

describe('AuditLog: group commit', () => {
  it('a crash during a batch loses at most that batch, and verify calls the log cut, not edited', async () => {
    // Batch 1 is on disk and its head written; batch 2 was being written when the machine went
    // down: its lines reached the disk only in part and its head was never written.
    const log = new AuditLog(file, { batchMs: 60_000 });
    const first = Promise.all([1, 2, 3].map((n) => log.append(call(n))));
    await log.flush();
    await first;
    const headAfterFirst = await readFile(`${file}.head`, 'utf8');
    const firstBytes = (await stat(file)).size;
    const second = Promise.all([4, 5, 6].map((n) => log.append(call(n))));
    await log.flush();
    await second;
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    await writeFile(`${file}.head`, headAfterFirst);
    // Line 5 half written: 4 is whole, 5 cut in its middle, 6 never came.
    const cutAt = firstBytes + (lines[3]?.length ?? 0) + 1 + 40;
    await truncate(file, cutAt);
    const verdict = await verifyAuditLog(file);
    expect(verdict).toEqual({
      ok: false,
      lines: 5,
      firstBad: { line: 5, reason: expect.stringContaining('cut short') as string, cut: true },
    });
    expect(verdict.firstBad?.reason).toContain('the lines before it are intact');

    // The log goes on after the cut (a new process): the new line starts on a line of its own
    // and verify still names the cut, never an edit.
    expect((await new AuditLog(file).append(call(7))).prev).toBe(
      sha256Text((await readFile(file, 'utf8')).split('\n')[4] ?? ''),
    );
    expect((await verifyAuditLog(file)).firstBad).toMatchObject({ line: 5, cut: true });

    // Within the lines the head vouches for, the same torn line is an edit, not a crash.
    await writeFile(`${file}.head`, JSON.stringify({ seq: 3, sha256: sha256Text(lines[2] ?? '') }));
    await writeFile(file, `${lines.slice(0, 2).join('\n')}\n${(lines[2] ?? '').slice(0, 30)}`);
    expect((await verifyAuditLog(file)).firstBad).toEqual({
      line: 3,
      reason: expect.stringContaining('not a JSON record') as string,
    });
  });

  it("goes on from where it left the log, and from another writer's line when one wrote since", async () => {
    const a = new AuditLog(file);
    const b = new AuditLog(file);
    await a.append(call(1));
    await a.append(call(2));
    // Another writer appends between two batches of `a`: `a` must chain to that line.
    await b.append(call(3));
    expect(await a.append(call(4))).toMatchObject({ seq: 4 });
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 4 });
    // An edit by hand that keeps the size is seen too (its times change): the next line chains
    // to the file's own last line, so verify names the edit there and nothing later.
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"durationMs":4', '"durationMs":5'));
    await a.append(call(5));
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(JSON.parse(lines[4] ?? '{}')).toMatchObject({
      seq: 5,
      prev: sha256Text(lines[3] ?? ''),
    });
  });

  it('makes its folder again when it was removed between two batches', async () => {
    const log = new AuditLog(file);
    await log.append(call(1));
    await rm(path.dirname(file), { recursive: true });
    expect(await log.append(call(2))).toMatchObject({ seq: 1 });
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 1 });
  });
});

describe('verifyAuditLog', () => {
  it('finds an edited, removed, moved, cut or forged line where it is', async () => {
    const lines = await writeLog(6);
    const check = async (text: string) => {
      await writeFile(file, text);
      return verifyAuditLog(file);
    };
    const edited = [...lines];
    edited[2] = (edited[2] ?? '').replace('"durationMs":3', '"durationMs":4');
    expect((await check(`${edited.join('\n')}\n`)).firstBad?.line).toBe(4);

    const removed = lines.filter((_, i) => i !== 3);
    expect((await check(`${removed.join('\n')}\n`)).firstBad).toEqual({
      line: 4,
      reason: expect.stringContaining('does not match: a line was edited, removed'),
    });

    const moved = [...lines];
    [moved[1], moved[2]] = [moved[2] ?? '', moved[1] ?? ''];
    expect((await check(`${moved.join('\n')}\n`)).firstBad?.line).toBe(2);

    const cut = `${lines.join('\n')}`.slice(0, -10);
    expect((await check(cut)).firstBad).toEqual({
      line: 6,
      reason: expect.stringContaining('not a JSON record'),
    });

    const head = lines.slice(1);
    expect((await check(`${head.join('\n')}\n`)).firstBad?.reason).toContain(
      'lines before it were removed',
    );

    const forged = JSON.stringify({ ...JSON.parse(lines[5] ?? '{}'), seq: 7 });
    expect((await check(`${lines.join('\n')}\n${forged}\n`)).firstBad?.line).toBe(7);

    // The end of the log, which no later line vouches for: the head file does.
    const lastEdited = [...lines];
    lastEdited[5] = (lastEdited[5] ?? '').replace('"durationMs":6', '"durationMs":7');
    expect((await check(`${lastEdited.join('\n')}\n`)).firstBad).toEqual({
      line: 6,
      reason: expect.stringContaining('the line was edited'),
    });
    expect((await check(`${lines.slice(0, 4).join('\n')}\n`)).firstBad).toEqual({
      line: 5,
      reason: expect.stringContaining('lines at its end were removed'),
    });

    expect(await check(`${lines.join('\n')}\n`)).toEqual({ ok: true, lines: 6 });
  });

  it('after a torn last line, a new append names only that line', async () => {
    const lines = await writeLog(2);
    await writeFile(file, `${lines.join('\n')}\n{"seq":3,"at":"20`);
    await new AuditLog(file).append(call(9));
    const verdict = await verifyAuditLog(file);
    expect(verdict.firstBad?.line).toBe(3);
    expect((await readFile(file, 'utf8')).split('\n')).toHaveLength(5);
  });

  it('takes a missing log as empty, and refuses a link', async () => {
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 0 });
    const real = path.join(tmp.path, 'real.jsonl');
    await writeFile(real, '');
    const link = path.join(tmp.path, 'link.jsonl');
    await symlink(real, link);
    await expect(verifyAuditLog(link)).rejects.toThrow(/not a file/);
    await expect(new AuditLog(link).append(call(1))).rejects.toThrow(/not a file/);
  });

  it('refuses a line whose fields do not fit its kind, and a reader skips it', async () => {
    const lines = await writeLog(2);
    const second = JSON.parse(lines[1] ?? '{}') as Record<string, unknown>;
    const broken = JSON.stringify({ ...second, durationMs: 'slow' });
    await writeFile(file, `${lines[0] ?? ''}\n${broken}\n`);
    expect((await verifyAuditLog(file)).firstBad).toEqual({
      line: 2,
      reason: expect.stringContaining('a field of its kind is missing or wrong'),
    });
    expect(await readAuditLog(file)).toHaveLength(1);
    await writeFile(file, 'null\n');
    expect((await verifyAuditLog(file)).firstBad?.line).toBe(1);
    expect(await readAuditLog(file)).toEqual([]);
  });

  it('reads the records from a time on', async () => {
    await writeLog(3);
    expect(await readAuditLog(file)).toHaveLength(3);
    expect(await readAuditLog(file, { since: new Date(Date.now() + 60_000) })).toEqual([]);
  });
});
