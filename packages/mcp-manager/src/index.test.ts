import { TOOL_EXPOSURES } from '@garuda/mcp-config';
import { checkPublicEntry } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import type { Prompter } from './index.js';
import { MINIMAL_OPTIONS } from '../test/support/options.js';

/** Options that make a manager (nothing starts: no test here calls a server). */
const OPTIONS = MINIMAL_OPTIONS;

describe('public entry', () => {
  checkPublicEntry(api, api.McpManagerErrorCode, import.meta.url);
});

describe('errors', () => {
  it('carry a stable code and a cross-copy marker', () => {
    const error = new api.CallDeclinedError('mcp__x__y');
    expect(error.code).toBe('MANAGER_CALL_DECLINED');
    expect(error.name).toBe('CallDeclinedError');
    expect(api.CallDeclinedError.isInstance(error)).toBe(true);
    expect(api.McpManagerError.isInstance(error)).toBe(true);
    expect(api.CallCancelledError.isInstance(error)).toBe(false);
    // A copy from another version of the package has the same marker, not the same class.
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('garuda.mcp-manager.McpManagerError')]: true,
    });
    expect(api.McpManagerError.isInstance(foreign)).toBe(true);
    expect(api.McpManagerError.isInstance('MANAGER_CALL_DECLINED')).toBe(false);
  });

  it('reject unusable options before anything runs', () => {
    expect(() => new api.McpManager(OPTIONS)).not.toThrow();
    for (const [option, given] of [
      ['root', { root: '' }],
      ['env', { env: undefined }],
      ['clientInfo', { clientInfo: { name: 'x' } }],
      ['prompter', { prompter: { notice: () => {} } }],
      ['timeouts.startMs', { timeouts: { startMs: 0 } }],
      ['rules.allow', { rules: { allow: 'mcp.*' } }],
      ['onChange', { onChange: 'tools' }],
      // A flat option of earlier versions is named, not ignored.
      ['allowRules', { allowRules: ['mcp.*'] }],
    ] as const) {
      const error = (() => {
        try {
          new api.McpManager({ ...OPTIONS, ...given } as never);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(api.InvalidOptionsError.isInstance(error), option).toBe(true);
      expect((error as api.InvalidOptionsError).option).toBe(option);
    }
  });

  it('take every mode of APPROVAL_MODES and TOOL_EXPOSURES, and list exactly those in the error', () => {
    for (const [record, option, table] of [
      ['rules', 'approvalMode', api.APPROVAL_MODES],
      ['tools', 'exposure', TOOL_EXPOSURES],
    ] as const) {
      const path = `${record}.${option}`;
      for (const mode of Object.keys(table)) {
        expect(
          () => new api.McpManager({ ...OPTIONS, [record]: { [option]: mode } }),
          mode,
        ).not.toThrow();
      }
      let message = '';
      try {
        new api.McpManager({ ...OPTIONS, [record]: { [option]: 'yolo' } } as never);
      } catch (e) {
        expect(api.InvalidOptionsError.isInstance(e), path).toBe(true);
        expect((e as { option?: unknown }).option, path).toBe(path);
        message = (e as Error).message;
      }
      const listed = [...message.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]);
      expect(listed, path).toEqual(Object.keys(table));
    }
  });

  it('methods before start() say what to do', async () => {
    const mcp = new api.McpManager(OPTIONS);
    expect(mcp.tools()).toEqual([]);
    expect(mcp.status()).toEqual([]);
    expect(mcp.takeNotes()).toEqual([]);
    await expect(mcp.call('mcp__x__y', {})).rejects.toSatisfy(api.NotStartedError.isInstance);
    await expect(mcp.reload('x')).rejects.toSatisfy(api.NotStartedError.isInstance);
    await mcp.close();
    await expect(mcp.start()).rejects.toSatisfy(api.ManagerClosedError.isInstance);
  });
});

describe('types a host writes against', () => {
  it('a plain object literal is a Prompter without a cast (its answers widen to string)', async () => {
    // Compile-time check (tsc --noEmit covers test files): `'once'` widens to `string` here.
    const literal = {
      consent: async () => 'once',
      notice: (_text: string) => undefined,
      approveCall: () => true,
    };
    const prompter: Prompter = literal;
    expect(await prompter.consent({} as never)).toBe('once');
  });
});
