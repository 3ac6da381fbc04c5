#!/usr/bin/env node
// Fails unless the tests of the given files really ran here: at least one passed and none was
// skipped, left pending or failed. CI uses it for the sandbox tests, which skip on a machine
// without the OS sandbox: there a green run must not mean "nothing was tried".
//
// Usage: node scripts/ci/require-tests-ran.mjs <vitest.json report> <file regex> [<what, for messages>]
import { readFileSync } from 'node:fs';

const [reportFile, pattern, what = pattern] = process.argv.slice(2);
if (!reportFile || !pattern) {
  process.stderr.write('usage: require-tests-ran.mjs <vitest.json> <file regex> [<what>]\n');
  process.exit(2);
}
let report;
try {
  report = JSON.parse(readFileSync(reportFile, 'utf8'));
} catch (error) {
  process.stderr.write(`${what}: no readable test report at ${reportFile} (${error.message}).\n`);
  process.exit(1);
}
const files = new RegExp(pattern);
const counts = new Map();
for (const file of report.testResults ?? []) {
  if (!files.test(file.name)) continue;
  for (const test of file.assertionResults ?? []) {
    counts.set(test.status, (counts.get(test.status) ?? 0) + 1);
    if (test.status !== 'passed') process.stderr.write(`${test.status}: ${test.fullName}\n`);
  }
}
const passed = counts.get('passed') ?? 0;
const other = [...counts].filter(([status]) => status !== 'passed');
const summary = [`${passed} passed`, ...other.map(([status, n]) => `${n} ${status}`)].join(', ');
if (passed === 0 || other.length > 0) {
  process.stderr.write(`${what}: ${summary}; every one must run and pass here.\n`);
  process.exit(1);
}
process.stdout.write(`${what}: ${summary}.\n`);
