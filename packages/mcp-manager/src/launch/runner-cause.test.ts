import { describe, expect, it } from 'vitest';
import { isBrokenCache, isBrokenInstall, runnerCause, upstreamFailure } from './runner-cause.js';

// What npm 10 printed when a killed `npx` had left a half-written cache, as seen in the field.
const NPM_ENOENT = [
  'npm error code ENOENT',
  'npm error syscall open',
  'npm error path /home/u/.cache/garuda-mcp/npm/ev-0a1b2c3d4e5f/_npx/9f86d081884c7d65/node_modules/express/package.json',
  'npm error errno -2',
  "npm error enoent ENOENT: no such file or directory, open '/home/u/.cache/garuda-mcp/npm/ev-0a1b2c3d4e5f/_npx/9f86d081884c7d65/node_modules/express/package.json'",
  'npm error enoent This is related to npm not being able to find a file.',
  'npm error enoent',
  'npm error A complete log of this run can be found in: /home/u/.cache/garuda-mcp/npm/ev-0a1b2c3d4e5f/_logs/2026-12-06T08_00_00_000Z-debug-0.log',
];

// Node's words when the half-written package runs anyway.
const MODULE_MISSING = [
  'node:internal/modules/cjs/loader:1228',
  '  throw err;',
  '  ^',
  '',
  "Error: Cannot find module '/home/u/.cache/garuda-mcp/npm/ev-0a1b2c3d4e5f/_npx/9f86d081884c7d65/node_modules/setprototypeof/index.js'",
  'Require stack:',
  '- /home/u/.cache/garuda-mcp/npm/ev-0a1b2c3d4e5f/_npx/9f86d081884c7d65/node_modules/express/lib/application.js',
  '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
  '{',
  "  code: 'MODULE_NOT_FOUND',",
  '}',
  '',
  'Node.js v20.20.2',
];

describe('runnerCause', () => {
  it("keeps npm's own error lines, drops the log pointer and the details, shortens cache paths", () => {
    const cause = runnerCause(NPM_ENOENT);
    expect(cause).toBe(
      "code ENOENT | path _npx/9f86d081884c7d65/node_modules/express/package.json | enoent ENOENT: no such file or directory, open '_npx/9f86d081884c7d65/node_modules/express/package.json'",
    );
    expect(cause).not.toContain('complete log');
    expect(cause).not.toContain('/home/u');
  });

  it('names the missing module of a half-written package', () => {
    expect(runnerCause(MODULE_MISSING)).toBe(
      "Error: Cannot find module '_npx/9f86d081884c7d65/node_modules/setprototypeof/index.js'",
    );
  });

  it('reads the older `npm ERR!` prefix, a registry miss, and cleans what the runner printed', () => {
    expect(
      runnerCause([
        'npm ERR! code E404',
        'npm ERR! 404 Not Found - GET https://registry.npmjs.org/nope-x - Not found',
        'npm ERR! \u001b[31m404\u001b[0m  \u202enope-x@1.0.0 is not in this registry.',
        'npm ERR! A complete log of this run can be found in: /x/_logs/debug.log',
      ]),
    ).toBe(
      'code E404 | 404 Not Found - GET https://registry.npmjs.org/nope-x - Not found | 404 nope-x@1.0.0 is not in this registry.',
    );
  });

  it('caps a long cause, keeping the first and the newest lines', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `npm error line ${i} ${'x'.repeat(40)}`);
    const cause = runnerCause(lines) ?? '';
    expect(cause.startsWith('line 0 ')).toBe(true);
    expect([...cause].length).toBeLessThanOrEqual(300);
    expect(cause).toContain('line 17 ');
    expect(cause).not.toContain('line 5 ');
  });

  it('says nothing when no line names a cause', () => {
    expect(runnerCause(['npm warn exec The following package was not found', ''])).toBeUndefined();
    expect(
      runnerCause(['npm error A complete log of this run can be found in: /x/debug.log']),
    ).toBeUndefined();
  });
});

describe('isBrokenCache', () => {
  it('sees exit code 254 and the missing-file errors of a half-written cache', () => {
    expect(isBrokenCache(254, [])).toBe(true);
    expect(isBrokenCache(1, NPM_ENOENT)).toBe(true);
    expect(isBrokenCache(1, MODULE_MISSING)).toBe(true);
    expect(isBrokenCache(1, ['npm error code E404'])).toBe(false);
    expect(isBrokenCache(null, [])).toBe(false);
  });
});

describe('isBrokenInstall', () => {
  it("sees a module missing from the runner's install, not a server's own missing module", () => {
    expect(isBrokenInstall(MODULE_MISSING)).toBe(true);
    expect(
      isBrokenInstall([
        "Error: Cannot find module 'ajv'",
        "  requireStack: [ '/c/_npx/5b2dd62b9d0bddd4/node_modules/ajv-formats/dist/limit.js' ]",
      ]),
    ).toBe(true);
    expect(isBrokenInstall(["Error: Cannot find module '/srv/app/plugin.js'"])).toBe(false);
  });

  it('sees npm itself tripping on a half-written install, not a missing file elsewhere', () => {
    expect(isBrokenInstall(NPM_ENOENT)).toBe(true);
    expect(
      isBrokenInstall([
        "npm error enoent ENOENT: no such file or directory, open '/srv/app/package.json'",
      ]),
    ).toBe(false);
    expect(isBrokenInstall(["Error: ENOENT: no such file or directory, open '/c/_npx/x'"])).toBe(
      false,
    );
  });
});

describe('upstreamFailure', () => {
  it("finds the newest line saying a proxy's upstream is out of reach, cleaned", () => {
    expect(
      upstreamFailure([
        'Stripe MCP server running on stdio',
        'TypeError: fetch failed',
        '    at node:internal/deps/undici/undici:13502:13 ECONNREFUSED',
        '  [cause]: Error: getaddrinfo ENOTFOUND api.example.com\u001b[0m',
      ]),
    ).toBe('[cause]: Error: getaddrinfo ENOTFOUND api.example.com');
    expect(upstreamFailure(['Error: connect ECONNREFUSED 127.0.0.1:443'])).toBe(
      'Error: connect ECONNREFUSED 127.0.0.1:443',
    );
    expect(upstreamFailure(['Error: GITHUB_TOKEN is missing'])).toBeUndefined();
  });
});
