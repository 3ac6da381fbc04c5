import { describe, expect, it } from 'vitest';
import { MAX_STDERR_EXCERPT_CHARS, stderrExcerpt } from './stderr-excerpt.js';

// What Node 20 prints when a server throws at start, after two long lines of its own.
const NODE_CRASH = [
  `${'w'.repeat(400)} warning: cache is cold`,
  'v'.repeat(400),
  '/srv/github/server.js:12',
  "  throw new Error('GITHUB_TOKEN is missing');",
  '  ^',
  '',
  'Error: GITHUB_TOKEN is missing',
  '    at main (/srv/github/server.js:12:9)',
  '    at Object.<anonymous> (/srv/github/server.js:20:1)',
  '    at Module._compile (node:internal/modules/cjs/loader:1554:14)',
  '    at node:internal/main/run_main_module:36:49 {',
  "  code: 'E_CONFIG',",
  '  requireStack: []',
  '}',
  '',
  'Node.js v20.20.2',
];

describe('stderrExcerpt', () => {
  it('quotes the error line of a Node crash, not its stack, property dump or banner', () => {
    const excerpt = stderrExcerpt(NODE_CRASH) ?? '';
    expect(excerpt).toContain('Error: GITHUB_TOKEN is missing');
    expect(excerpt).not.toMatch(/Node\.js v|requireStack|E_CONFIG|server\.js|^\s*at |^\}/);
    expect(Array.from(excerpt).length).toBeLessThanOrEqual(MAX_STDERR_EXCERPT_CHARS);
  });

  it("quotes npm's error, not its pointer to a log file the user cannot see", () => {
    const excerpt = stderrExcerpt([
      'npm error code ENOENT',
      "npm error enoent ENOENT: no such file or directory, open '/c/_npx/9f/package.json'",
      'npm error A complete log of this run can be found in: /c/_logs/2026-debug-0.log',
    ]);
    expect(excerpt).toContain(
      "npm error enoent ENOENT: no such file or directory, open '/c/_npx/9f",
    );
    expect(excerpt).not.toContain('complete log');
  });

  it('keeps the newest lines and cuts the older ones first', () => {
    const long = (c: string) => c.repeat(100);
    expect(stderrExcerpt([long('a'), long('b'), 'listening failed on port 3000'])).toBe(
      'listening failed on port 3000',
    );
    expect(stderrExcerpt(['starting', 'loading plugins', 'ready? no'])).toBe(
      'starting | loading plugins | ready? no',
    );
    expect(stderrExcerpt(['one', 'two', 'three', 'four', 'five'])).toBe('three | four | five');
  });

  it('prefers the line that states the error over newer chatter', () => {
    const tail = ['npm error code E404', 'npm error 404 Not Found - GET https://r/x', 'bye'];
    expect(stderrExcerpt(tail)).toContain('npm error 404 Not Found');
    expect(stderrExcerpt(['fatal: not a git repository', 'exiting'])).toBe(
      'fatal: not a git repository | exiting',
    );
    const python = [
      'Traceback (most recent call last):',
      '  File "/srv/s.py", line 3, in <module>',
      '    main()',
      'ValueError: API_KEY is empty',
    ];
    expect(stderrExcerpt(python)).toContain('ValueError: API_KEY is empty');
    expect(stderrExcerpt(python)).not.toContain('File "');
  });

  it('cuts one overlong error line at the end, and never exceeds the cap', () => {
    const excerpt = stderrExcerpt([`Error: ${'z'.repeat(1_000)}`]) ?? '';
    expect(excerpt.startsWith('Error: zzz')).toBe(true);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(Array.from(excerpt).length).toBe(MAX_STDERR_EXCERPT_CHARS);
  });

  it('cleans what the server wrote and keeps it on one line', () => {
    const excerpt = stderrExcerpt(['\u001b[31mError:\u001b[0m bad\u202e key\r\nsecond']) ?? '';
    expect(excerpt).not.toMatch(/[\u001b\u202e\r\n]/);
    expect(excerpt).toContain('Error: bad key');
  });

  it('returns undefined for nothing, and the newest line when everything is noise', () => {
    expect(stderrExcerpt([])).toBeUndefined();
    expect(stderrExcerpt(['', '  '])).toBeUndefined();
    expect(stderrExcerpt(['    at x (y.js:1:1)', 'Node.js v20.20.2'])).toBe('Node.js v20.20.2');
  });

  it('keeps the lines of a brace that never closes', () => {
    expect(stderrExcerpt(['{', 'config missing'])).toBe('config missing');
  });
});
