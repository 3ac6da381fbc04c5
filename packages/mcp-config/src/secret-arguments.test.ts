import { describe, expect, it } from 'vitest';
import { secretArguments } from './secret-arguments.js';

describe('secretArguments', () => {
  it('finds secret options written out, each shown without its secret', () => {
    expect(
      secretArguments([
        '-y',
        'server',
        '--api-key=sk_live_0123456789abcdefghijklmnop',
        '--access-token=plainvalue123',
        '--token',
        'another-plain-value',
        'GITHUB_TOKEN=plainvalue456',
        'ghp_0123456789abcdefghijklmnopqrstuvwxyz',
      ]),
    ).toEqual([
      { index: 2, shown: '--api-key=…', variable: 'API_KEY' },
      { index: 3, shown: '--access-token=…', variable: 'ACCESS_TOKEN' },
      { index: 5, shown: '--token …', variable: 'TOKEN' },
      { index: 6, shown: 'GITHUB_TOKEN=…', variable: 'GITHUB_TOKEN' },
      { index: 7, shown: '…', variable: undefined },
    ]);
  });

  it('leaves flags, paths, addresses and ${NAME} alone', () => {
    expect(
      secretArguments([
        '--token-file',
        '/home/me/.token',
        '--api-key',
        '${API_KEY}',
        '--auth-url=https://auth.example.com',
        '--verbose',
        '--port',
        '8080',
      ]),
    ).toEqual([]);
  });
});
