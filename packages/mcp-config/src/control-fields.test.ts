// The control fields (tool filters, exposure, declared capabilities, batching, result size):
// what loads, what is refused and how, and which of them the definition hash covers.

import { describe, expect, it } from 'vitest';
import { itReportsEach, type BadCase } from '../test/bad-files.js';
import { fileWith, userFileLoader } from '../test/config-files.js';
import { localDefaults, remoteDefaults } from '../test/local-defaults.js';
import { tempDirs } from '../test/temp-dir.js';
import { ConfigProblemCode } from './config-problem.js';
import { defHash } from './def-hash.js';
import { TOOL_EXPOSURES, type ToolExposure } from './control-fields.js';
import type { LocalServerDef } from './server-types.js';

const dirs = tempDirs();
const loadUserFile = userFileLoader(dirs);

const BAD: readonly BadCase[] = [
  {
    name: 'allowTools that is not a list',
    content: fileWith('"bad": { "command": "x", "allowTools": "read_*" }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'allowTools',
    goodLoads: true,
    says: 'like ["read_*", "search"]',
  },
  {
    name: 'an empty tool pattern',
    content: fileWith('"bad": { "command": "x", "denyTools": ["ok", ""] }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'denyTools[1]',
    goodLoads: true,
    says: 'a tool name or a * pattern',
  },
  {
    name: 'a tool pattern with an invisible character',
    content: fileWith(
      '"bad": { "url": "https://mcp.example.com/mcp", "allowTools": ["re\\u200bad"] }',
    ),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'allowTools[0]',
    goodLoads: true,
    says: 'no control or invisible characters',
  },
  {
    name: 'a tool pattern that is too long',
    content: fileWith(`"bad": { "command": "x", "directTools": ["${'a'.repeat(201)}"] }`),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'directTools[0]',
    goodLoads: true,
    says: '1 to 200 characters',
  },
  {
    name: 'an unknown exposure',
    content: fileWith('"bad": { "command": "x", "exposure": "lazy" }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'exposure',
    goodLoads: true,
    says: '"direct", "search", "proxy" or "auto"',
  },
  {
    name: 'an empty capabilities list',
    content: fileWith('"bad": { "command": "x", "capabilities": [] }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'capabilities',
    goodLoads: true,
    says: 'that counts as high risk',
  },
  {
    name: 'a capability listed twice',
    content: fileWith('"bad": { "command": "x", "capabilities": ["read", "read"] }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'capabilities',
    goodLoads: true,
    says: 'different values',
  },
  {
    name: 'an unknown capability',
    content: fileWith('"bad": { "command": "x", "capabilities": ["read", "admin"] }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'capabilities[1]',
    goodLoads: true,
    says: '"untrusted_output"',
  },
  {
    name: 'an unknown batching',
    content: fileWith('"bad": { "command": "x", "batching": "parallel" }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'batching',
    goodLoads: true,
    says: '"serialized" or "path_scoped"',
  },
  {
    name: 'path_scoped batching without capabilities',
    content: fileWith('"bad": { "command": "x", "batching": "path_scoped" }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'batching',
    goodLoads: true,
    says: 'needs "capabilities" declared',
  },
  {
    name: 'path_scoped batching on a shell server',
    content: fileWith(
      '"bad": { "command": "x", "capabilities": ["read", "shell"], "batching": "path_scoped" }',
    ),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'batching',
    goodLoads: true,
    says: 'also declared "shell"',
  },
  {
    name: 'a maxResultChars below the floor',
    content: fileWith('"bad": { "command": "x", "maxResultChars": 10 }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'maxResultChars',
    goodLoads: true,
    says: 'from 1000 to 1000000',
  },
  {
    name: 'a maxResultChars that is not whole',
    content: fileWith('"bad": { "url": "https://mcp.example.com/mcp", "maxResultChars": 2000.5 }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'maxResultChars',
    goodLoads: true,
    says: 'remove it to use 30000',
  },
];

describe('control fields that are refused', () => {
  itReportsEach(dirs, BAD);

  it('lists the control fields among what a server takes', async () => {
    const result = await loadUserFile(fileWith('"bad": { "command": "x", "allowtools": [] }'));
    const problem = result.problems.find((p) => p.field === 'allowtools');
    expect(problem?.message).toContain('allowTools, denyTools, directTools, exposure');
  });
});

describe('the exposure modes (TOOL_EXPOSURES)', () => {
  // Compile-time: a mode added to ToolExposure without a description here fails tsc (tests are
  // type-checked); the checks below catch an empty or multi-line one.
  const table: Readonly<Record<ToolExposure, string>> = TOOL_EXPOSURES;

  it('describes every mode in one non-empty line, in a frozen table', () => {
    expect(Object.isFrozen(table)).toBe(true);
    expect(Object.keys(table)).toEqual(['direct', 'search', 'proxy', 'auto']);
    for (const [mode, what] of Object.entries(table)) {
      expect(what.trim(), mode).not.toBe('');
      expect(what, mode).not.toMatch(/[\r\n]/);
    }
  });

  it('is what a config file may say, and what its problem lists', async () => {
    for (const mode of Object.keys(table)) {
      const result = await loadUserFile(
        fileWith(`"ok": { "command": "x", "exposure": "${mode}" }`),
      );
      expect(result.problems, mode).toEqual([]);
    }
    const result = await loadUserFile(fileWith('"bad": { "command": "x", "exposure": "lazy" }'));
    const message = result.problems.find((p) => p.field === 'exposure')?.message ?? '';
    const listed = [...(message.split('must be ')[1] ?? '').matchAll(/"([a-z_]+)"/g)];
    expect(
      listed.map((m) => m[1]),
      message,
    ).toEqual(Object.keys(table));
  });
});

describe('control fields that load', () => {
  it('keeps every field as written, on local and remote servers', async () => {
    const fields = {
      allowTools: ['read_*', 'search'],
      denyTools: ['read_secret'],
      directTools: ['search'],
      exposure: 'search',
      capabilities: ['write', 'read'],
      batching: 'path_scoped',
      maxResultChars: 5000,
    };
    const result = await loadUserFile({
      servers: {
        files: { command: 'fs-server', ...fields },
        web: { url: 'https://mcp.example.com/mcp', ...fields },
      },
    });
    expect(result.problems).toEqual([]);
    for (const server of result.servers) {
      expect(server.def).toMatchObject(fields);
    }
  });

  it('leaves the fields out of a definition that does not write them', async () => {
    const result = await loadUserFile({ servers: { plain: { command: 'x' } } });
    const def = result.servers[0]?.def as unknown as Record<string, unknown>;
    for (const key of ['allowTools', 'denyTools', 'directTools', 'exposure', 'capabilities']) {
      expect(Object.hasOwn(def, key), key).toBe(false);
    }
  });

  it('takes an empty allow list, which offers no tool', async () => {
    const result = await loadUserFile({ servers: { quiet: { command: 'x', allowTools: [] } } });
    expect(result.problems).toEqual([]);
    expect(result.servers[0]?.def.allowTools).toEqual([]);
  });
});

const LOCAL = localDefaults('fs-server');
const REMOTE = remoteDefaults('https://mcp.example.com/mcp');

describe('defHash and the control fields', () => {
  it('changes when capabilities are declared or changed, on both kinds', () => {
    for (const def of [LOCAL, REMOTE]) {
      const plain = defHash(def);
      const read = defHash({ ...def, capabilities: ['read'] });
      const readWrite = defHash({ ...def, capabilities: ['read', 'write'] });
      expect(read).not.toBe(plain);
      expect(readWrite).not.toBe(read);
      // The order written does not matter.
      expect(defHash({ ...def, capabilities: ['write', 'read'] })).toBe(readWrite);
    }
  });

  it('changes when batching becomes path_scoped, not for serialized', () => {
    const readWrite: LocalServerDef = { ...LOCAL, capabilities: ['read', 'write'] };
    expect(defHash({ ...readWrite, batching: 'path_scoped' })).not.toBe(defHash(readWrite));
    expect(defHash({ ...readWrite, batching: 'serialized' })).toBe(defHash(readWrite));
  });

  it('does not change for filters, exposure or result size', () => {
    const plain = defHash(LOCAL);
    expect(
      defHash({
        ...LOCAL,
        allowTools: ['a'],
        denyTools: ['b'],
        directTools: ['a'],
        exposure: 'search',
        maxResultChars: 2000,
      }),
    ).toBe(plain);
  });

  it('refuses a batching it does not know', () => {
    expect(() => defHash({ ...LOCAL, batching: 'parallel' as never })).toThrow(/batching/);
  });
});
