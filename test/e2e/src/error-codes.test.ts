// An error code means one thing across all packages: every value of a package's code table
// starts with that package's prefix, and no value is in two tables. A caller that logs or
// compares `error.code` alone (without the class) can then still tell which package failed and
// why. The tables are found by walking each public entry, and the sources are searched for code
// tables too, so a package that adds one must also give it a prefix here.
import * as config from '@garuda/mcp-config';
import * as manager from '@garuda/mcp-manager';
import * as oauth from '@garuda/mcp-oauth';
import * as sanitize from '@garuda/mcp-sanitize';
import * as tools from '@garuda/mcp-tools';
import * as transport from '@garuda/mcp-transport';
import * as trust from '@garuda/mcp-trust';
import * as pinned from '@garuda/pinned-fetch';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './workspace.js';

/** Each package with error codes: its public entry and the prefix of every code it has. */
const PACKAGES: readonly { folder: string; module: object; prefix: string }[] = [
  { folder: 'mcp-config', module: config, prefix: 'CONFIG_' },
  { folder: 'mcp-manager', module: manager, prefix: 'MANAGER_' },
  { folder: 'mcp-oauth', module: oauth, prefix: 'OAUTH_' },
  { folder: 'mcp-sanitize', module: sanitize, prefix: 'SANITIZE_' },
  { folder: 'mcp-tools', module: tools, prefix: 'TOOLS_' },
  { folder: 'mcp-transport', module: transport, prefix: 'TRANSPORT_' },
  { folder: 'mcp-trust', module: trust, prefix: 'TRUST_' },
  { folder: 'pinned-fetch', module: pinned, prefix: 'FETCH_' },
];

/** The exports of a module named `…ErrorCode` that are objects: its error code tables. */
function codeTables(module: object): Map<string, Readonly<Record<string, unknown>>> {
  const tables = new Map<string, Readonly<Record<string, unknown>>>();
  for (const [name, value] of Object.entries(module)) {
    if (name.endsWith('ErrorCode') && typeof value === 'object' && value !== null) {
      tables.set(name, value as Record<string, unknown>);
    }
  }
  return tables;
}

/** Every `export const …ErrorCode` in a package's sources, as `<folder>/<name>`. */
function declaredTables(): string[] {
  const found: string[] = [];
  const packages = join(repoRoot, 'packages');
  for (const folder of readdirSync(packages)) {
    const src = join(packages, folder, 'src');
    let files: string[];
    try {
      files = readdirSync(src, { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    for (const file of files) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = readFileSync(join(src, file), 'utf8');
      for (const match of text.matchAll(/^export const (\w+ErrorCode)\b/gm)) {
        found.push(`${folder}/${match[1]}`);
      }
    }
  }
  return found.sort();
}

/**
 * What is wrong with a set of code tables: a value without its package's prefix, a value that is
 * not a string, or a value in two tables (or twice in one).
 */
function codeProblems(
  tables: readonly { owner: string; prefix: string; table: Readonly<Record<string, unknown>> }[],
): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const { owner, prefix, table } of tables) {
    for (const [key, value] of Object.entries(table)) {
      const where = `${owner}.${key}`;
      if (typeof value !== 'string') {
        problems.push(`${where} is not a string`);
        continue;
      }
      if (!value.startsWith(prefix))
        problems.push(`${where} = ${value} lacks the prefix ${prefix}`);
      const other = seen.get(value);
      if (other !== undefined) problems.push(`${value} is both ${other} and ${where}`);
      else seen.set(value, where);
    }
  }
  return problems;
}

const ALL = PACKAGES.flatMap(({ folder, module, prefix }) =>
  [...codeTables(module)].map(([name, table]) => ({ owner: `${folder}/${name}`, prefix, table })),
);

describe('error codes', () => {
  it('finds a code table in the public entry of every package listed, each with its own prefix', () => {
    for (const { folder, module } of PACKAGES) {
      expect(codeTables(module).size, folder).toBeGreaterThan(0);
    }
    expect(new Set(PACKAGES.map(({ prefix }) => prefix)).size).toBe(PACKAGES.length);
  });

  it('lists every code table the sources declare, so each has a prefix here', () => {
    expect(declaredTables()).toEqual(ALL.map(({ owner }) => owner).sort());
  });

  it("starts every code with its package's prefix, and no code is in two tables", () => {
    expect(ALL.reduce((n, { table }) => n + Object.keys(table).length, 0)).toBeGreaterThan(60);
    expect(codeProblems(ALL)).toEqual([]);
  });

  it('refuses a code without its prefix and a code another package has', () => {
    const trustCodes = {
      owner: 'mcp-trust/TrustStoreErrorCode',
      prefix: 'TRUST_',
      table: trust.TrustStoreErrorCode,
    };
    expect(
      codeProblems([
        trustCodes,
        { owner: 'new/NewErrorCode', prefix: 'NEW_', table: { WRITE_FAILED: 'WRITE_FAILED' } },
      ]),
    ).toEqual(['new/NewErrorCode.WRITE_FAILED = WRITE_FAILED lacks the prefix NEW_']);
    expect(
      codeProblems([
        trustCodes,
        { owner: 'new/NewErrorCode', prefix: 'TRUST_', table: { FAILED: 'TRUST_WRITE_FAILED' } },
      ]),
    ).toEqual([
      'TRUST_WRITE_FAILED is both mcp-trust/TrustStoreErrorCode.WRITE_FAILED and new/NewErrorCode.FAILED',
    ]);
  });
});
