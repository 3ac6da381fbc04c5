import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { MCP_CONFIG_SCHEMA_URL, mcpConfigJsonSchema } from './json-schema.js';
import { newConfigText } from './config-text-edit.js';

const schema = mcpConfigJsonSchema();
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

const local = {
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem@2025.8.21', '.'],
  env: { TOKEN: '${GITHUB_TOKEN}' },
  cwd: 'tools',
  network: true,
  writePaths: ['out'],
  readPaths: ['~/docs'],
  timeoutMs: 30_000,
  enabled: false,
  allowTools: ['read_*'],
  denyTools: ['delete_*'],
  exposure: 'search',
  capabilities: ['read', 'write'],
  batching: 'path_scoped',
  maxResultChars: 50_000,
};
const remote = {
  url: 'https://mcp.example.com/mcp',
  type: 'http',
  headers: { 'X-Team': 'docs' },
  oauth: { clientId: 'garuda', scopes: ['read:docs'] },
};

describe('the JSON Schema of mcp.json', () => {
  it('is the one the package ships (mcp.schema.json is up to date)', async () => {
    const shipped: unknown = JSON.parse(
      await readFile(new URL('../mcp.schema.json', import.meta.url), 'utf8'),
    );
    // If this fails: pnpm --filter @garuda/mcp-config schema
    expect(shipped).toEqual(schema);
    expect(schema.$id).toBe(MCP_CONFIG_SCHEMA_URL);
  });

  it.each([
    ['a local and a remote server', { servers: { files: local, docs: remote } }],
    ['"mcpServers", as other clients write it', { mcpServers: { files: { command: 'x' } } }],
    ['a "$schema" and no servers', { $schema: MCP_CONFIG_SCHEMA_URL, servers: {} }],
    ['what garuda-mcp writes for a new file', JSON.parse(newConfigText('files', local))],
  ])('accepts %s', (_, file) => {
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['an unknown field', { servers: { a: { command: 'x', comand: 'y' } } }],
    ['an upper-case server name', { servers: { Files: { command: 'x' } } }],
    ['a time limit under a second', { servers: { a: { command: 'x', timeoutMs: 10 } } }],
    ['an unknown capability', { servers: { a: { command: 'x', capabilities: ['root'] } } }],
    ['a server with neither command nor url', { servers: { a: { args: ['x'] } } }],
    ['headers on a local server', { servers: { a: { command: 'x', headers: {} } } }],
    ['both "servers" and "mcpServers"', { servers: {}, mcpServers: {} }],
    ['an unknown top-level key', { servers: {}, extra: true }],
    ['an env name with a space', { servers: { a: { command: 'x', env: { 'A B': '1' } } } }],
  ])('refuses %s', (_, file) => {
    expect(validate(file)).toBe(false);
  });

  it('names the schema first in a file garuda-mcp creates', () => {
    expect(Object.keys(JSON.parse(newConfigText('a', { command: 'x' })) as object)).toEqual([
      '$schema',
      'servers',
    ]);
  });
});
