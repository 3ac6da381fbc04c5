#!/usr/bin/env node
// Fails unless the tests of a suite really ran here: at least `min` of them passed and nothing in
// the given files failed. CI uses it for the OS sandbox tests, which skip on a machine without
// the OS sandbox: there a green run must not mean "nothing was tried". Tests written for the
// other OS's sandbox skip by design and are only counted.
//
// Usage: node scripts/ci/require-tests-ran.mjs <vitest.json report> <file regex> <suite name> <min>
import { readFileSync } from 'node:fs';

const [reportFile, pattern, suite, minText] = process.argv.slice(2);
const min = Number(minText);
if (!reportFile || !pattern || !suite || !Number.isInteger(min) || min < 1) {
  process.stderr.write(
    'usage: require-tests-ran.mjs <vitest.json> <file regex> <suite name> <min>\n',
  );
  process.exit(2);
}
let report;
try {
  report = JSON.parse(readFileSync(reportFile, 'utf8'));
} catch (error) {
  process.stderr.write(`${suite}: no readable test report at ${reportFile} (${error.message}).\n`);
  process.exit(1);
}
const files = new RegExp(pattern);
let passed = 0;
let skipped = 0;
const failed = [];
for (const file of report.testResults ?? []) {
  if (!files.test(file.name)) continue;
  for (const test of file.assertionResults ?? []) {
    if (test.status === 'failed') failed.push(test.fullName);
    else if (test.status === 'passed' && test.fullName.startsWith(suite)) passed += 1;
    else if (test.status !== 'passed') skipped += 1;
  }
}
for (const name of failed) process.stderr.write(`failed: ${name}\n`);
const summary = `${passed} passed in "${suite}", ${failed.length} failed, ${skipped} skipped (written for another OS)`;
if (passed < min || failed.length > 0) {
  process.stderr.write(`${summary}; at least ${min} must pass and none may fail.\n`);
  process.exit(1);
}
process.stdout.write(`${summary}.\n`);
