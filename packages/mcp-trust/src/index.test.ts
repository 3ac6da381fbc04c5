import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import { TrustStoreError, TrustStoreErrorCode } from './index.js';

describe('public entry', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'DEFAULT_LOCK_STALE_MS',
        'DEFAULT_LOCK_TIMEOUT_MS',
        'LockedFileError',
        'LockedJsonFile',
        'MAX_KEY_LENGTH',
        'MAX_VALUE_DEPTH',
        'MCP_TRUST_PREFIX',
        'TrustStore',
        'TrustStoreError',
        'TrustStoreErrorCode',
        'checkToolPins',
        'diffTools',
        'forgetMcpServer',
        'getMcpTrustEntry',
        'hashTools',
        'mcpTrustKey',
        'mcpTrustPrefix',
        'parseMcpTrustKey',
        'readMcpTrustEntry',
        'rememberMcpServer',
        'toolHashes',
        'upgradeMcpTrustEntry',
        'withFileLock',
      ].sort(),
    );
  });
});

describe('errors', () => {
  it('carry a stable code, a name and a cross-copy marker', () => {
    let caught: unknown;
    try {
      api.mcpTrustKey({ kind: 'user' }, '');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(TrustStoreError);
    expect(TrustStoreError.isInstance(caught)).toBe(true);
    expect(api.LockedFileError.isInstance(caught)).toBe(false);
    expect((caught as TrustStoreError).code).toBe(TrustStoreErrorCode.INVALID_KEY);
    expect((caught as TrustStoreError).name).toBe('TrustStoreError');
    const foreign = {
      [Symbol.for('garuda.mcp-trust.TrustStoreError')]: true,
      code: 'LOCK_TIMEOUT',
    };
    expect(TrustStoreError.isInstance(foreign)).toBe(true);
    expect(TrustStoreError.isInstance(new Error('x'))).toBe(false);
    expect(TrustStoreError.isInstance(null)).toBe(false);
  });

  it('has one code per failure mode, each equal to its name', () => {
    for (const [name, code] of Object.entries(TrustStoreErrorCode)) expect(code).toBe(name);
    expect(new Set(Object.values(TrustStoreErrorCode)).size).toBe(
      Object.keys(TrustStoreErrorCode).length,
    );
  });

  it('pass the cause through', () => {
    const cause = Object.assign(new Error('EACCES: nope'), { code: 'EACCES' });
    const where = { file: '/x/trust.json', path: '/x/trust.json' };
    const error = new api.LockedFileError('FILE_UNREADABLE', 'cannot read it', where, { cause });
    expect(error.cause).toBe(cause);
    expect(error).toMatchObject({ name: 'LockedFileError', code: 'FILE_UNREADABLE', ...where });
    expect(TrustStoreError.isInstance(error)).toBe(true);
  });
});
