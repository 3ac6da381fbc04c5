#!/usr/bin/env node
// Adds up the JSON reports that every workspace's vitest run writes to test-results/vitest.json
// and prints one closing line, `N passed, N failed`, the shape CI reads. Suites that failed to
// load (a syntax error, a missing import) count as failed even when they ran no test, and so
// does a workspace with a `test` script but no report: its tests never ran (the run stopped, or
// a build it needs failed), and a run that left some out must never look small and green.
// A run that failed outside any test (an unhandled error) counts once as failed too.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
let passed = 0;
let failed = 0;
let skipped = 0;
const seen = [];
const notRun = [];

/** Whether the workspace in `dir` has a `test` script (an unreadable package.json: assume so). */
function hasTests(dir) {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return false;
  try {
    return typeof JSON.parse(readFileSync(manifest, 'utf8')).scripts?.test === 'string';
  } catch {
    return true;
  }
}

for (const group of ['packages', 'apps', 'test', '.']) {
  const dir = join(root, group);
  const names = group === '.' ? ['bench'] : existsSync(dir) ? readdirSync(dir).sort() : [];
  for (const name of names) {
    const where = `${group}/${name}`;
    const file = join(dir, name, 'test-results', 'vitest.json');
    if (!existsSync(file)) {
      if (hasTests(join(dir, name))) {
        failed += 1;
        notRun.push(where);
        seen.push(`${where}: no report, its tests did not run (counted as 1 failed)`);
      }
      continue;
    }
    try {
      const r = JSON.parse(readFileSync(file, 'utf8'));
      const numPassed = r.numPassedTests ?? 0;
      const numFailed = r.numFailedTests ?? 0;
      passed += numPassed;
      failed += numFailed;
      skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
      const brokenSuites = (r.testResults ?? []).filter(
        (s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0,
      ).length;
      failed += brokenSuites;
      // vitest says `success: false` for errors outside any test too (an unhandled rejection).
      const outside = r.success === false && numFailed + brokenSuites === 0 ? 1 : 0;
      failed += outside;
      seen.push(
        `${where}: ${numPassed} passed, ${numFailed + brokenSuites + outside} failed` +
          (outside ? ' (the run failed outside any test)' : ''),
      );
    } catch (e) {
      failed += 1;
      seen.push(`${where}: unreadable report (${e.message})`);
    }
  }
}
for (const line of seen) console.log(`  ${line}`);
if (notRun.length > 0) console.log(`  not run: ${notRun.join(', ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
