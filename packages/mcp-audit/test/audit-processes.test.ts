// Several processes append to one audit log at once through the public AuditLog: the lock the
// trust store uses serialises them, each continues the chain from the file's own last line, and
// every record lands whole.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTogether, useTempDir } from '@garuda/test-utils';
import { useChildScript } from '@garuda/test-utils/build-for-children';
import { describe, expect, it } from 'vitest';
import { readAuditLog, verifyAuditLog } from '../src/index.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHILD = path.join(packageDir, 'test', 'fixtures', 'audit-child.mjs');

const tmp = useTempDir('garuda-audit-processes-');
// Registered after the folder's hooks, so its children are killed before the folder goes.
const children = useChildScript(packageDir, CHILD);

describe('AuditLog across processes', () => {
  it('four processes appending at once leave one whole chain holding every record', async () => {
    const file = path.join(tmp.path, 'home', 'audit.jsonl');
    const tags = ['a', 'b', 'c', 'd'];
    const count = 40;
    let running = true;
    const together = runTogether(tags.map((tag) => children.start([file, tag, String(count)])));
    void together.finally(() => (running = false));
    // A verification beside the writers never calls the log broken: it reads what the last
    // writer left, under the same lock, not a line half written or a head newer than its lines.
    const verdicts: boolean[] = [];
    while (running) verdicts.push((await verifyAuditLog(file)).ok);
    for (const { code, stderr } of await together) {
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    }
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.every(Boolean)).toBe(true);

    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: tags.length * count });
    const records = await readAuditLog(file);
    for (const tag of tags) {
      const mine = records.filter((record) => record.server === tag);
      // Every record of every process, each once, in the order its process appended them.
      expect(mine.map((record) => (record.kind === 'call' ? record.durationMs : -1))).toEqual(
        Array.from({ length: count }, (_, n) => n),
      );
    }
  }, 180_000);
});
