import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, shippedWorkspaces, sourceFiles } from './workspace.js';

// The one-way dependency direction of DESIGN.md: sanitize, pinned-fetch, trust ← config,
// transport, oauth ← manager ← cli. Each entry lists the @garuda packages it may depend on.
const ALLOWED: Record<string, string[]> = {
  '@garuda/mcp-sanitize': [],
  '@garuda/pinned-fetch': [],
  '@garuda/mcp-trust': [],
  '@garuda/mcp-config': ['@garuda/pinned-fetch', '@garuda/mcp-sanitize'],
  '@garuda/mcp-transport': ['@garuda/mcp-sanitize'],
  '@garuda/mcp-oauth': ['@garuda/pinned-fetch', '@garuda/mcp-sanitize'],
  '@garuda/mcp-manager': [
    '@garuda/mcp-sanitize',
    '@garuda/pinned-fetch',
    '@garuda/mcp-trust',
    '@garuda/mcp-config',
    '@garuda/mcp-transport',
    '@garuda/mcp-oauth',
  ],
  'garuda-mcp': [
    '@garuda/mcp-sanitize',
    '@garuda/pinned-fetch',
    '@garuda/mcp-trust',
    '@garuda/mcp-config',
    '@garuda/mcp-transport',
    '@garuda/mcp-oauth',
    '@garuda/mcp-manager',
  ],
};

const workspaces = shippedWorkspaces();

describe('workspace topology', () => {
  it('has all eight workspaces', () => {
    expect(workspaces.map((w) => w.name).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  for (const ws of workspaces) {
    describe(ws.name, () => {
      const ours = (deps: Record<string, string>) =>
        Object.keys(deps).filter((d) => d.startsWith('@garuda/') || d === 'garuda-mcp');

      it('depends only on the packages below it', () => {
        const declared = [...ours(ws.deps), ...ours(ws.peerDeps), ...ours(ws.devDeps)];
        for (const dep of declared) expect(ALLOWED[ws.name], `${ws.name} → ${dep}`).toContain(dep);
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
              // A relative import must stay inside the workspace.
              const target = resolve(ws.dir, file, '..', spec);
              expect(target.startsWith(ws.dir + '/'), `${ws.name}/${file} imports ${spec}`).toBe(
                true,
              );
              continue;
            }
            const m = /^(@garuda\/[^/]+|garuda-mcp)(\/.*)?$/.exec(spec);
            if (!m) continue;
            expect(m[2], `${ws.name}/${file} reaches into ${spec}`).toBeUndefined();
            expect(m[1], `${ws.name}/${file} imports ${spec}`).not.toBe(ws.name);
            const declared = {
              ...ws.deps,
              ...ws.peerDeps,
              ...(file.includes('.test.') || file.startsWith('test/') ? ws.devDeps : {}),
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

  it('the stand-alone packages import no other @garuda package at all', () => {
    for (const name of ['@garuda/mcp-sanitize', '@garuda/pinned-fetch']) {
      const ws = workspaces.find((w) => w.name === name)!;
      const files = sourceFiles(ws.dir);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const specs = importsOf(readFileSync(join(ws.dir, file), 'utf8'));
        expect(
          specs.filter((s) => s.startsWith('@garuda/') || s.startsWith('garuda-mcp')),
          `${name}/${file}`,
        ).toEqual([]);
      }
    }
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
