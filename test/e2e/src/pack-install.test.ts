// The packages that are useful on their own (the two stand-alone ones, and the model-facing
// mcp-tools for any MCP client) must work for someone who installs them from npm: pack them the
// way `pnpm publish` would, install the tarballs with plain npm into a folder outside the repo,
// and import them from a plain Node ESM script. Their errors come from @garuda/internal, which
// is never published: this proves it is bundled, code and markers alike.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './workspace.js';

const run = promisify(execFile);
const PACKAGES = ['mcp-sanitize', 'pinned-fetch', 'mcp-tools'];

/** pnpm as started by the test command; `pnpm` from PATH otherwise. */
function pnpm(args: string[], cwd: string) {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) return run(process.execPath, [execPath, ...args], { cwd });
  return run('pnpm', args, { cwd });
}

const CHECK = `
import { capText, cleanText, neutralizeTags, SanitizeError } from '@garuda/mcp-sanitize';
import { classifyAddress, createPinnedFetch, isBlockedAddressError } from '@garuda/pinned-fetch';
import { adaptTools, filterToolList, formatResult } from '@garuda/mcp-tools';
import { createServer } from 'node:http';

const server = createServer((req, res) => res.end('hello from ' + req.headers.host));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = 'http://127.0.0.1:' + server.address().port + '/';
const result = {
  cleaned: neutralizeTags(cleanText('\\x1b[31mok\\u202e</mcp_result>')),
  metadata: classifyAddress('169.254.169.254'),
  public: classifyAddress('8.8.8.8'),
};
const listed = filterToolList({
  tools: [{ name: 'echo', inputSchema: { type: 'object' } }, { name: 'bad', inputSchema: { type: 'string' } }],
});
result.tools = adaptTools('demo', listed.kept).tools.map((tool) => tool.name);
result.dropped = listed.dropped;
result.wrapped = formatResult('demo', 'echo', { content: [{ type: 'text', text: 'hi</mcp_result>' }] }).text;
try { capText('x', -1); } catch (e) { result.error = SanitizeError.isInstance(e) ? e.name + ' ' + e.code : String(e); }
const strict = createPinnedFetch();
try { await strict(url); result.strict = 'connected'; } catch (e) { result.strict = isBlockedAddressError(e) ? 'blocked' : String(e); }
const loopback = createPinnedFetch({ allowLoopback: true });
const res = await loopback(url);
result.loopback = res.status + ' ' + (await res.text());
await Promise.all([strict.close(), loopback.close()]);
server.close();
console.log(JSON.stringify(result));
`;

describe('pack and install', () => {
  let work = '';
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'garuda-pack-'));
    const tarballs: string[] = [];
    for (const name of PACKAGES) {
      await pnpm(['pack', '--pack-destination', work], join(repoRoot, 'packages', name));
    }
    for (const f of await readdir(work)) if (f.endsWith('.tgz')) tarballs.push(join(work, f));
    expect(tarballs).toHaveLength(PACKAGES.length);
    const app = join(work, 'app');
    await run('mkdir', ['-p', app]);
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    );
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs],
      {
        cwd: app,
        timeout: 240_000,
      },
    );
    await writeFile(join(app, 'check.mjs'), CHECK);
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('imports and works from a plain Node ESM script outside the repo', async () => {
    const { stdout } = await run(process.execPath, ['check.mjs'], {
      cwd: join(work, 'app'),
      timeout: 30_000,
    });
    expect(JSON.parse(stdout)).toEqual({
      cleaned: 'ok‹/mcp_result>',
      error: 'SanitizeError SANITIZE_INVALID_LIMIT',
      metadata: 'metadata',
      public: 'public',
      strict: 'blocked',
      loopback: expect.stringMatching(/^200 hello from 127\.0\.0\.1:\d+$/),
      tools: ['mcp__demo__echo'],
      dropped: [{ index: 1, problem: 'its input schema\'s type is not "object"' }],
      wrapped: '<mcp_result server="demo" tool="echo">\nhi‹/mcp_result>\n</mcp_result>',
    });
  });

  it('depends on no private workspace', async () => {
    for (const name of PACKAGES) {
      const installed = JSON.parse(
        await readFile(join(work, 'app', 'node_modules', '@garuda', name, 'package.json'), 'utf8'),
      ) as Record<string, Record<string, string> | undefined>;
      const runtime = { ...installed.dependencies, ...installed.peerDependencies };
      // Only published packages of ours (mcp-tools depends on mcp-sanitize); never a private one.
      expect(
        Object.keys(runtime).filter(
          (dep) => dep.startsWith('@garuda/') && !PACKAGES.includes(dep.slice('@garuda/'.length)),
        ),
        name,
      ).toEqual([]);
    }
  });

  it('ships only dist, package.json, README, LICENSE and CHANGELOG', async () => {
    for (const name of PACKAGES) {
      const { stdout } = await run('tar', [
        '-tzf',
        (await readdir(work)).filter((f) => f.includes(name)).map((f) => join(work, f))[0]!,
      ]);
      const files = stdout
        .trim()
        .split('\n')
        .map((f) => f.replace(/^package\//, ''));
      expect(files).toContain('dist/index.js');
      expect(files).toContain('dist/index.d.ts');
      expect(files).toContain('README.md');
      expect(files).toContain('CHANGELOG.md');
      expect(
        files.filter(
          (f) => !/^(dist\/|package\.json$|README\.md$|LICENSE$|CHANGELOG\.md$)/.test(f),
        ),
      ).toEqual([]);
    }
  });
});
