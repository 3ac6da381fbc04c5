import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { HostDescriptor } from './host.js';
import { HOSTS } from './index.js';

/** Every field a descriptor must have, and the type of its value. */
const REQUIRED = {
  id: 'string',
  installName: 'string',
  installOrder: 'number',
  displayName: 'string',
  files: 'function',
  format: 'string',
  serversKey: 'string',
  projectServers: 'boolean',
  variables: 'string',
  fields: 'string',
  oauth: 'boolean',
  gatewayEntry: 'function',
} as const satisfies Record<keyof HostDescriptor, string>;

const at = {
  userHome: '/home/me',
  root: '/work/repo',
  appFolder: (name: string) => `/home/me/.config/${name}`,
};

describe('HOSTS', () => {
  it('is a list of complete descriptors (the compiler checks each file with satisfies too)', () => {
    expectTypeOf(HOSTS).toExtend<readonly HostDescriptor[]>();
    expect(HOSTS.length).toBeGreaterThan(0);
    for (const host of HOSTS) {
      for (const [field, type] of Object.entries(REQUIRED)) {
        expect(typeof (host as Record<string, unknown>)[field], `${host.id}.${field}`).toBe(type);
      }
      expect(['json', 'jsonc', 'toml']).toContain(host.format);
      expect(['claude', 'gemini', 'editor', 'editor-inputs', 'none']).toContain(host.variables);
      expect(['common', 'gemini', 'codex']).toContain(host.fields);
      expect(host.displayName).not.toBe('');
      expect(host.serversKey).not.toBe('');
      // A user file at least, every path absolute.
      const files = [
        ...host.files('user', at, path.posix),
        ...host.files('project', at, path.posix),
      ];
      expect(host.files('user', at, path.posix).length, host.id).toBeGreaterThan(0);
      for (const file of files) expect(path.posix.isAbsolute(file), file).toBe(true);
      const entry = host.gatewayEntry('/bin/node', ['bin.js', 'serve']);
      expect(entry, host.id).toMatchObject({ command: '/bin/node', args: ['bin.js', 'serve'] });
    }
  });

  it('has no id, install name or install place twice', () => {
    for (const field of ['id', 'installName', 'installOrder', 'displayName'] as const) {
      const values = HOSTS.map((host) => host[field]);
      expect(new Set(values).size, field).toBe(values.length);
    }
  });
});
