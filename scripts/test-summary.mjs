#!/usr/bin/env node
// Adds up the JSON reports that every workspace's vitest run writes to test-results/vitest.json
// and prints one closing line, `N passed, N failed`, the shape CI reads. Suites that failed to
// load (a syntax error, a missing import) count as failed even when they ran no test.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
let passed = 0;
let failed = 0;
let skipped = 0;
const seen = [];
for (const group of ['packages', 'apps', 'test', '.']) {
  const dir = join(root, group);
  const names = group === '.' ? ['bench'] : existsSync(dir) ? readdirSync(dir) : [];
  for (const name of names) {
    const file = join(dir, name, 'test-results', 'vitest.json');
    if (!existsSync(file)) continue;
    try {
      const r = JSON.parse(readFileSync(file, 'utf8'));
      passed += r.numPassedTests ?? 0;
      failed += r.numFailedTests ?? 0;
      skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
      const brokenSuites = (r.testResults ?? []).filter(
        (s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0,
      ).length;
      failed += brokenSuites;
      seen.push(
        `${group}/${name}: ${r.numPassedTests} passed, ${r.numFailedTests + brokenSuites} failed`,
      );
    } catch (e) {
      failed += 1;
      seen.push(`${group}/${name}: unreadable report (${e.message})`);
    }
  }
}
for (const line of seen) console.log(`  ${line}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
