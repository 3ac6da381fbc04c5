import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtImportsOf, importsOf, shippedWorkspaces, sourceFiles } from './workspace.js';

// The one-way dependency direction of DESIGN.md: sanitize, pinned-fetch, trust ← config,
// transport, oauth, tools, audit ← manager ← gateway ← cli (tools takes sanitize only; audit
// sanitize and trust's file lock only). Each entry lists the @garuda packages it may depend on.
const MANAGER_DEPS = [
  '@garuda/mcp-sanitize',
  '@garuda/pinned-fetch',
  '@garuda/mcp-trust',
  '@garuda/mcp-config',
  '@garuda/mcp-transport',
  '@garuda/mcp-oauth',
  '@garuda/mcp-tools',
  '@garuda/mcp-audit',
];
const ALLOWED: Record<string, string[]> = {
  '@garuda/internal': [],
  '@garuda/mcp-sanitize': [],
  '@garuda/pinned-fetch': [],
  '@garuda/mcp-trust': [],
  '@garuda/mcp-config': ['@garuda/pinned-fetch', '@garuda/mcp-sanitize', '@garuda/mcp-trust'],
  '@garuda/mcp-transport': ['@garuda/mcp-sanitize'],
  '@garuda/mcp-oauth': ['@garuda/pinned-fetch', '@garuda/mcp-sanitize', '@garuda/mcp-trust'],
  '@garuda/mcp-tools': ['@garuda/mcp-sanitize'],
  '@garuda/mcp-audit': ['@garuda/mcp-sanitize', '@garuda/mcp-trust'],
  '@garuda/mcp-manager': MANAGER_DEPS,
  '@garuda/mcp-gateway': [...MANAGER_DEPS, '@garuda/mcp-manager'],
  'garuda-mcp': [...MANAGER_DEPS, '@garuda/mcp-manager', '@garuda/mcp-gateway'],
};

/** The entries test-utils declares in its package.json (`./build-for-children`, …). */
const TEST_UTILS_ENTRIES = new Set(
  Object.keys(
    (
      JSON.parse(
        readFileSync(resolve(import.meta.dirname, '../../utils/package.json'), 'utf8'),
      ) as { exports: Record<string, unknown> }
    ).exports,
  ),
);

/** Private test workspaces: allowed in devDependencies and tests, never in shipped code. */
const TEST_ONLY = ['@garuda/test-utils', '@garuda/e2e'];

/**
 * The private helpers workspace: shipped code may import it, but only as a devDependency, because
 * tsup bundles it (code and types) into each package's dist, checked on the build below. Never
 * a dependency or peer dependency: it is not published.
 */
const BUNDLED = '@garuda/internal';

/** A test, or the support its tests share beside the source (`*test-support.ts`), never shipped. */
function isTestFile(file: string): boolean {
  return file.includes('.test.') || file.startsWith('test/') || /test-support\.ts$/.test(file);
}

/**
 * The one exception: `garuda-mcp demo` runs on the test fixtures (the stdio fixture's tools, the
 * OAuth server, the scripted browser). tsup bundles them into the CLI's dist, so the published
 * CLI never imports @garuda/test-utils at run time (checked on the build below). Only the CLI's
 * demo folder, only @garuda/test-utils: its `demo` entry or a file of its fixtures folder.
 */
function isBundledDemoFixture(workspace: string, file: string, spec: string): boolean {
  return (
    workspace === 'garuda-mcp' &&
    file.startsWith('src/commands/demo/') &&
    /^@garuda\/test-utils\/(demo|fixtures\/[\w.-]+)$/.test(spec)
  );
}

const workspaces = shippedWorkspaces();

describe('workspace topology', () => {
  it('has all twelve workspaces', () => {
    expect(workspaces.map((w) => w.name).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  for (const ws of workspaces) {
    describe(ws.name, () => {
      const ours = (deps: Record<string, string>) =>
        Object.keys(deps).filter((d) => d.startsWith('@garuda/') || d === 'garuda-mcp');

      it('depends only on the packages below it', () => {
        const declared = [...ours(ws.deps), ...ours(ws.peerDeps), ...ours(ws.devDeps)];
        for (const dep of declared) {
          // The private test doubles may be a dev dependency of anything; never a runtime one.
          if (TEST_ONLY.includes(dep) && !(dep in ws.deps) && !(dep in ws.peerDeps)) continue;
          if (dep === BUNDLED) {
            expect(ws.deps, `${ws.name} → ${dep} must be a devDependency`).not.toHaveProperty(dep);
            expect(ws.peerDeps, `${ws.name} → ${dep} must be a devDependency`).not.toHaveProperty(
              dep,
            );
            expect(ws.devDeps[dep], `${ws.name} → ${dep}`).toBe('workspace:*');
            continue;
          }
          expect(ALLOWED[ws.name], `${ws.name} → ${dep}`).toContain(dep);
        }
      });

      it('uses workspace ranges for its siblings', () => {
        for (const dep of ours(ws.deps)) {
          expect(ws.deps[dep], `${ws.name} → ${dep}`).toMatch(
            ws.name === 'garuda-mcp' ? /^workspace:\*$/ : /^workspace:\^$/,
          );
        }
      });

      it('imports siblings only through their public entry, and declares them', () => {
        for (const file of sourceFiles(ws.dir)) {
          const text = readFileSync(join(ws.dir, file), 'utf8');
          for (const spec of importsOf(text)) {
            if (spec.startsWith('.')) {
              // Shipped code never imports test support (which may use the test-only packages).
              if (!isTestFile(file) && /test-support(\.js)?$/.test(spec)) {
                expect.fail(`${ws.name}/${file} ships an import of test support ${spec}`);
              }
              // A relative import must stay inside the workspace.
              const target = resolve(ws.dir, file, '..', spec);
              expect(target.startsWith(ws.dir + '/'), `${ws.name}/${file} imports ${spec}`).toBe(
                true,
              );
              continue;
            }
            const m = /^(@garuda\/[^/]+|garuda-mcp)(\/.*)?$/.exec(spec);
            if (!m) continue;
            if (isBundledDemoFixture(ws.name, file, spec)) continue;
            // A test may use the test workspace's other declared entries (e.g. one that loads tsup).
            const declaredEntry =
              m[1] === '@garuda/test-utils' &&
              isTestFile(file) &&
              TEST_UTILS_ENTRIES.has(`.${m[2]}`);
            if (!declaredEntry) {
              expect(m[2], `${ws.name}/${file} reaches into ${spec}`).toBeUndefined();
            }
            expect(m[1], `${ws.name}/${file} imports ${spec}`).not.toBe(ws.name);
            if (TEST_ONLY.includes(m[1] as string) && !isTestFile(file)) {
              expect.fail(`${ws.name}/${file} ships an import of the test-only ${spec}`);
            }
            const declared = {
              ...ws.deps,
              ...ws.peerDeps,
              ...(isTestFile(file) || m[1] === BUNDLED ? ws.devDeps : {}),
            };
            expect(
              Object.keys(declared),
              `${ws.name}/${file} imports undeclared ${spec}`,
            ).toContain(m[1]);
          }
        }
      });
    });
  }

  it('the built CLI imports only its dependencies and Node built-ins (the demo fixtures are bundled)', async () => {
    const cli = workspaces.find((w) => w.name === 'garuda-mcp')!;
    const dist = join(cli.dir, 'dist');
    expect(
      existsSync(join(dist, 'bin.js')),
      `${dist}/bin.js is missing: build the CLI first (pnpm --filter garuda-mcp build)`,
    ).toBe(true);
    // The demo's stdio server is a file of its own: the manager spawns it.
    expect(existsSync(join(dist, 'demo-server.js'))).toBe(true);
    const files = readdirSync(dist).filter((name) => name.endsWith('.js'));
    for (const file of files) {
      for (const spec of await builtImportsOf(readFileSync(join(dist, file), 'utf8'))) {
        if (spec.startsWith('./')) continue;
        expect(
          TEST_ONLY.some((name) => spec === name || spec.startsWith(`${name}/`)),
          `dist/${file} imports the test-only ${spec} at run time`,
        ).toBe(false);
        if (isBuiltin(spec)) continue;
        const name = spec.startsWith('@')
          ? spec.split('/').slice(0, 2).join('/')
          : spec.split('/')[0];
        expect(Object.keys(cli.deps), `dist/${file} imports undeclared ${spec}`).toContain(name);
      }
    }
    expect(files.length).toBeGreaterThan(2);
  });

  it('the stand-alone packages import no other @garuda package (their tests: test-utils only)', () => {
    for (const name of ['@garuda/mcp-sanitize', '@garuda/pinned-fetch']) {
      const ws = workspaces.find((w) => w.name === name)!;
      const files = sourceFiles(ws.dir);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        // @garuda/internal is bundled into their dist: it adds no dependency (checked below).
        const specs = importsOf(readFileSync(join(ws.dir, file), 'utf8')).filter(
          (s) => !(isTestFile(file) && TEST_ONLY.includes(s)) && s !== BUNDLED,
        );
        expect(
          specs.filter((s) => s.startsWith('@garuda/') || s.startsWith('garuda-mcp')),
          `${name}/${file}`,
        ).toEqual([]);
      }
    }
  });

  it('the model-facing layer (mcp-tools) ships no MCP SDK: no runtime dependency, no import', () => {
    const ws = workspaces.find((w) => w.name === '@garuda/mcp-tools')!;
    const sdk = (name: string) => name.startsWith('@modelcontextprotocol/');
    expect(Object.keys({ ...ws.deps, ...ws.peerDeps }).filter(sdk)).toEqual([]);
    const shipped = sourceFiles(ws.dir).filter((file) => !isTestFile(file));
    expect(shipped.length).toBeGreaterThan(0);
    for (const file of shipped) {
      const specs = importsOf(readFileSync(join(ws.dir, file), 'utf8'));
      expect(specs.filter(sdk), `${ws.name}/${file}`).toEqual([]);
    }
  });

  it('@garuda/internal is private and depends on nothing', () => {
    const internal = workspaces.find((w) => w.name === BUNDLED)!;
    expect(internal.private).toBe(true);
    expect({ ...internal.deps, ...internal.peerDeps, ...internal.devDeps }).toEqual({});
    for (const file of sourceFiles(internal.dir)) {
      const specs = importsOf(readFileSync(join(internal.dir, file), 'utf8'));
      expect(
        specs.filter(
          (s) => !s.startsWith('.') && !isBuiltin(s) && s !== 'vitest' && s !== 'fast-check',
        ),
        `${BUNDLED}/${file}`,
      ).toEqual([]);
    }
  });

  it('every package that uses @garuda/internal ships it bundled: no built file imports or names it', () => {
    const users = workspaces.filter((w) => BUNDLED in w.devDeps);
    expect(users.map((w) => w.name)).toEqual(
      expect.arrayContaining([
        '@garuda/mcp-sanitize',
        '@garuda/pinned-fetch',
        '@garuda/mcp-trust',
        '@garuda/mcp-config',
        '@garuda/mcp-transport',
      ]),
    );
    for (const ws of users) {
      const dist = join(ws.dir, 'dist');
      expect(existsSync(join(dist, 'index.js')), `${dist}/index.js is missing: build first`).toBe(
        true,
      );
      const files = readdirSync(dist).filter((name) => /\.(js|d\.ts)$/.test(name));
      for (const file of files) {
        const text = readFileSync(join(dist, file), 'utf8');
        expect(
          importsOf(text).filter((spec) => spec === BUNDLED || spec.startsWith(`${BUNDLED}/`)),
          `${ws.name}/dist/${file} imports ${BUNDLED}`,
        ).toEqual([]);
        if (file.endsWith('.d.ts')) {
          expect(text, `${ws.name}/dist/${file} names ${BUNDLED}`).not.toContain(BUNDLED);
          // Its types are inlined, so no declaration points outside the package either.
          expect(
            importsOf(text).filter((spec) => spec.startsWith('.')),
            file,
          ).toEqual([]);
        }
      }
    }
  });

  it("no package uses the SDK's own stdio transport (it spawns processes outside our sandbox)", () => {
    const banned = /^@modelcontextprotocol\/(client\/stdio|sdk\/client\/stdio(\.js)?)$/;
    let scanned = 0;
    for (const ws of workspaces) {
      for (const file of sourceFiles(ws.dir)) {
        scanned++;
        const specs = importsOf(readFileSync(join(ws.dir, file), 'utf8'));
        expect(
          specs.filter((s) => banned.test(s)),
          `${ws.name}/${file}`,
        ).toEqual([]);
      }
    }
    expect(scanned).toBeGreaterThan(10);
    expect(
      importsOf(
        "import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';",
      ).filter((s) => banned.test(s)),
    ).toHaveLength(1);
  });

  it('the import scanner finds the forms it must', () => {
    const text = [
      "import a from '@garuda/x';",
      'import { b } from "@garuda/y/internal";',
      "export { c } from '@garuda/z';",
      "import '@garuda/side';",
      "const d = await import('@garuda/dyn');",
      "import type { E } from '@garuda/types';",
      "/** @example\n * import { f } from '@garuda/in-a-comment';\n */",
      "// import { g } from '@garuda/line-comment';",
      // The word as a string or a property is no import (a command named "import", say).
      'const commands = ["add", "import"], other = { import: "x" }; x.import("y");',
    ].join('\n');
    expect(importsOf(text)).toEqual([
      '@garuda/x',
      '@garuda/y/internal',
      '@garuda/z',
      '@garuda/side',
      '@garuda/dyn',
      '@garuda/types',
    ]);
  });
});
