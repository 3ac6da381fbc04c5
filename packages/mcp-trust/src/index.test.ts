import { caught, checkErrors, checkPublicEntry } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import { TrustStoreError, TrustStoreErrorCode } from './index.js';

describe('public entry', () => {
  checkPublicEntry(api, TrustStoreErrorCode, import.meta.url);
});

describe('errors', () => {
  checkErrors(TrustStoreError, {
    marker: 'garuda.mcp-trust.TrustStoreError',
    codes: TrustStoreErrorCode,
    prefix: 'TRUST_',
    below: [api.LockedFileError],
    samples: [
      {
        error: caught(() => api.mcpTrustKey({ kind: 'user' }, '')),
        Class: TrustStoreError,
        code: TrustStoreErrorCode.INVALID_KEY,
        name: 'TrustStoreError',
      },
      {
        error: new api.LockedFileError('TRUST_FILE_UNREADABLE', 'cannot read it', {
          file: '/f',
          path: '/f',
        }),
        Class: api.LockedFileError,
        code: TrustStoreErrorCode.FILE_UNREADABLE,
        name: 'LockedFileError',
      },
    ],
  });

  it('pass the cause through', () => {
    const cause = Object.assign(new Error('EACCES: nope'), { code: 'EACCES' });
    const where = { file: '/x/trust.json', path: '/x/trust.json' };
    const error = new api.LockedFileError('TRUST_FILE_UNREADABLE', 'cannot read it', where, {
      cause,
    });
    expect(error.cause).toBe(cause);
    expect(error).toMatchObject({
      name: 'LockedFileError',
      code: 'TRUST_FILE_UNREADABLE',
      ...where,
    });
    expect(TrustStoreError.isInstance(error)).toBe(true);
  });
});
