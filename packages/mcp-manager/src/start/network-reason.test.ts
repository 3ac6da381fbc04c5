import { describe, expect, it } from 'vitest';
import { networkReason } from './network-reason.js';

describe('networkReason', () => {
  it('finds the code down the cause chain, as the SDK and undici wrap it', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    const fetchFailed = new TypeError('fetch failed', { cause: refused });
    const sdk = new Error('Version negotiation probe failed: fetch failed', { cause: fetchFailed });
    expect(networkReason(sdk)).toBe(
      'the connection was refused (nothing listens at that address and port) [ECONNREFUSED]',
    );
    const tls = new TypeError('fetch failed', {
      cause: Object.assign(new Error('self-signed certificate'), {
        code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      }),
    });
    expect(networkReason(tls)).toMatch(/self-signed, so it is not trusted/);
  });

  it('knows nothing for other errors, codes it does not list, or a cycle', () => {
    expect(networkReason(new Error('x'))).toBeUndefined();
    expect(networkReason(Object.assign(new Error('x'), { code: 'EWHATEVER' }))).toBeUndefined();
    expect(networkReason('ECONNREFUSED')).toBeUndefined();
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(networkReason(loop)).toBeUndefined();
  });
});
