// pnpm bench: runs every comparison side by side in this one process, prints a markdown table
// per comparison as it finishes, and writes bench/results.json. `pnpm bench sanitizer start`
// runs only the named suites.
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import process from 'node:process';
import {
  failedSection,
  goalLines,
  goalsMarkdown,
  sectionMarkdown,
  targetRows,
  targetsMarkdown,
  type Section,
} from './report.js';
import { callsSuite } from './suites/calls.js';
import { catalogSizeSuite } from './suites/catalog-size.js';
import { cliSuite } from './suites/cli.js';
import { gatewaySuite } from './suites/gateway.js';
import { memorySuite } from './suites/memory.js';
import { pinnedFetchSuite } from './suites/pinned-fetch.js';
import { sanitizerSuite } from './suites/sanitizer.js';
import { startSuite } from './suites/start.js';

const SUITES: Record<string, () => Promise<Section[]>> = {
  calls: callsSuite,
  start: startSuite,
  sanitizer: sanitizerSuite,
  'pinned-fetch': pinnedFetchSuite,
  memory: memorySuite,
  'catalog-size': catalogSizeSuite,
  gateway: gatewaySuite,
  cli: cliSuite,
};

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
for (const name of wanted) {
  if (!(name in SUITES)) {
    process.stderr.write(`unknown suite ${name}; choose from: ${Object.keys(SUITES).join(', ')}\n`);
    process.exit(2);
  }
}

const machine = {
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.availableParallelism(),
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  loadAverage: os.loadavg().map((load) => Number(load.toFixed(2))),
};
// A side that fails after its suite moved on (a late rejection of a closed client) is reported
// on stderr; it must not end the run.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(
    `(a promise failed outside its suite: ${reason instanceof Error ? reason.message : String(reason)})\n`,
  );
});
const started = performance.now();
process.stdout.write(
  `# Garuda MCP benchmarks\n\n${new Date().toISOString()} · Node ${machine.node} · ${machine.cpu} · ${machine.cores} cores · ${machine.memoryGiB} GiB · load ${machine.loadAverage.join(' ')}\n\n`,
);
const sections: Section[] = [];
const completed: string[] = [];
const failedSuites: string[] = [];
for (const [name, suite] of Object.entries(SUITES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const suiteStarted = performance.now();
  let results: Section[];
  try {
    results = await suite();
    completed.push(name);
  } catch (error) {
    // A suite that stops is reported and the run goes on: one failure must not hide the rest.
    failedSuites.push(name);
    results = [failedSection(name, error)];
  }
  for (const section of results) {
    sections.push(section);
    process.stdout.write(`${sectionMarkdown(section)}\n\n`);
  }
  process.stderr.write(`(${name}: ${((performance.now() - suiteStarted) / 1000).toFixed(1)} s)\n`);
}
const seconds = (performance.now() - started) / 1000;
const targets = targetRows(sections);
if (targets.length > 0) process.stdout.write(`${targetsMarkdown(targets)}\n\n`);
const goals = goalLines(sections, completed, failedSuites);
process.stdout.write(`${goalsMarkdown(goals)}\n\n`);
process.stdout.write(`Total: ${seconds.toFixed(1)} s\n`);
const missed = sections.flatMap((s) =>
  s.rows.filter((row) => row.met === false).map((row) => `${s.title}: ${row.name}`),
);
if (missed.length > 0)
  process.stdout.write(`\nTargets missed (see the notes): ${missed.join('; ')}\n`);
await writeFile(
  new URL('../results.json', import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString(), machine, seconds, targets, goals, sections }, null, 2)}\n`,
);
