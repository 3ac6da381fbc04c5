import { cpuMsOf } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { looksSecretName, looksSecretValue } from './looks-secret.js';

describe('looksSecretName', () => {
  it.each([
    ['GITHUB_PERSONAL_ACCESS_TOKEN', true],
    ['api_key', true],
    ['X-Api-Key', true],
    ['PASSWORD', true],
    ['AWS_CREDENTIALS', true],
    ['CLIENT_SECRET', true],
    ['Authorization', true],
    ['Proxy-Authorization', true],
    ['Cookie', true],
    ['X-Auth', true],
    ['NODE_AUTH_TOKEN', true],
    ['--auth', true],
    ['PATH', false],
    ['HOME', false],
    ['GIT_AUTHOR_NAME', false],
    ['Accept', false],
    ['LOG_LEVEL', false],
  ])('%s → %s', (name, expected) => {
    expect(looksSecretName(name)).toBe(expected);
  });
});

describe('looksSecretValue', () => {
  it.each([
    'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
    'glpat-abcdefghij1234567890',
    'sk-proj-Abc123Def456Ghi789Jkl012Mno345',
    'sk_live_51Habcdefghijklmnopqrstu',
    'xoxb-123456789012-1234567890123-AbCdEfGhIjKl',
    'AKIAIOSFODNN7EXAMPLE',
    'AIzaSyA-abcdefghijklmnopqrstuvwxyz12345',
    'hf_abcdefghijklmnopqrstuvwxyz',
    'Bearer abc.def.ghi-123',
    'basic dXNlcjpwYXNzd29yZA==',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc',
    '-----BEGIN OPENSSH PRIVATE KEY-----',
    'postgres://app:s3cret@db.example/app',
    'q8Zt3LmN7vX2pR9sK4wY6bH1',
    '--api=q8Zt3LmN7vX2pR9sK4wY6bH1',
    '0123456789abcdef0123456789abcdef',
  ])('%s looks secret', (value) => {
    expect(looksSecretValue(value)).toBe(true);
  });

  it.each([
    '',
    'Bearer ${LINEAR_TOKEN}',
    '${GITHUB_TOKEN}',
    '$API_KEY',
    '@modelcontextprotocol/server-github',
    'mcp-server-fetch',
    '/home/me/.nvm/versions/node/v20.10.0/bin/node',
    'https://mcp.linear.app/mcp',
    'sk-learn',
    'application/json',
    '8080',
    '20240101123000123456',
    'internationalization-and-localization',
    'ghcr.io/github/github-mcp-server@sha256:' + 'ab12'.repeat(16),
    'git+https://github.com/org/repo#0123456789abcdef0123456789abcdef01234567',
    '550e8400-e29b-41d4-a716-446655440000',
    'true',
  ])('%s does not look secret', (value) => {
    expect(looksSecretValue(value)).toBe(false);
  });

  it('is cheap on huge values', () => {
    // A guard against a hang, not a speed test: CPU time, which a busy machine does not add to.
    let secret: boolean | undefined;
    const cpuMs = cpuMsOf(() => (secret = looksSecretValue('a-'.repeat(5_000_000))));
    expect(secret).toBe(false);
    expect(cpuMs).toBeLessThan(20_000);
  });
});

describe('looksSecretValue on hostile text', () => {
  // A guard against quadratic time, not a speed test: the linear checks finish these in a second
  // or two; searches that read a long run again from each of its characters took over a minute.
  // The bound is on CPU time and loose, so a busy machine cannot fail it.
  it(
    'ReDoS: long runs made to restart each check (eyJ…, a scheme run, ${…, known prefixes) finish',
    { timeout: 300_000 },
    () => {
      const hostile = [
        'eyJ'.repeat(17_000),
        `z${'a'.repeat(50_000)}`,
        `${'a1'.repeat(25_000)}://`,
        `x://${':'.repeat(50_000)}`,
        '${'.repeat(25_000),
        '$'.repeat(50_000),
        ' sk-'.repeat(12_500),
        `-----BEGIN ${'A '.repeat(25_000)}`,
        `bearer${' '.repeat(50_000)}`,
      ];
      const cpuMs = cpuMsOf(() => {
        for (let round = 0; round < 120; round += 1) {
          for (const value of hostile) looksSecretValue(value);
        }
      });
      expect(cpuMs).toBeLessThan(20_000);
    },
  );

  it('still finds what hides after many references, and skips the references themselves', () => {
    expect(looksSecretValue(`${'${X} '.repeat(100)}ghp_16C7e42F292c6912E7710c838347Ae178B4a`)).toBe(
      true,
    );
    expect(looksSecretValue('${'.repeat(100))).toBe(false);
    expect(looksSecretValue('Bearer ${TOKEN} and $OTHER_TOKEN_VALUE_1234567890')).toBe(false);
    expect(looksSecretValue('x eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig')).toBe(true);
    expect(looksSecretValue('postgres://user:hunter2@db')).toBe(true);
  });
});
