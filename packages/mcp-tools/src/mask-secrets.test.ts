import { randomBytes } from 'node:crypto';
import { cpuMsOf } from '@garuda/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptTools } from './adapt-tools.js';
import {
  MAX_PREVIEW_ARGUMENTS,
  MAX_PREVIEW_ARGUMENT_CHARS,
  MAX_PREVIEW_NAME_CHARS,
  callPreview,
} from './call-preview.js';
import { callPreviewText, previewArgumentsText } from './call-preview-text.js';
import { MASK, looksSecretKey, maskString } from './mask-secrets.js';
import type { CallPreview, McpTool } from './types.js';

const [tool] = adaptTools('github', [{ name: 'run', inputSchema: { type: 'object' } }]).tools as [
  McpTool,
];

// Published examples (GitHub's docs, AWS's docs, jwt.io) and made-up values, not credentials.
const GITHUB = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
const AWS_ID = 'AKIAIOSFODNN7EXAMPLE';
/** The shape of an AWS secret access key: 40 random base64 characters, `/` included. */
const AWS_SECRET = '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';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB',
  'aNEhCsYCxLz1rc5t3Q8jHG5aG9fAW5uIq1hXbUgJrX4a4s8kZ1lVl9Ex2+Rxqyw3',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

/** Every 4-character piece of `secret`: none of them may be shown. */
function pieces(secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 4 <= secret.length; i++) out.push(secret.slice(i, i + 4));
  return out;
}

function expectHidden(text: string, secret: string): void {
  for (const piece of pieces(secret)) expect(text, piece).not.toContain(piece);
}

function valueOf(preview: CallPreview, name: string): string | undefined {
  return preview.arguments.find((argument) => argument.name === name)?.value;
}

describe('looksSecretKey', () => {
  it('takes the secret words anywhere in a name, in any case', () => {
    for (const name of [
      'token',
      'accessToken',
      'GITHUB_TOKEN',
      'client_secret',
      'password',
      'db_passwd',
      'userPwd',
      'apikey',
      'api_key',
      'X-Api-Key',
      'Authorization',
      'cookie',
      'Set-Cookie',
      'credentials',
      'sessionId',
      'bearer',
      'private_key',
    ]) {
      expect(looksSecretKey(name), name).toBe(true);
    }
  });

  it('takes key and auth only as a whole segment', () => {
    for (const name of ['key', 'privateKey', 'ssh-key', 'KEY_ID', 'APIKey', 'x-auth', 'authType']) {
      expect(looksSecretKey(name), name).toBe(true);
    }
    for (const name of ['keyboard', 'monkey', 'keys', 'author', 'authority', 'path', 'query']) {
      expect(looksSecretKey(name), name).toBe(false);
    }
  });
});

describe('maskString', () => {
  it('masks each known kind of secret whole and names it, keeping no character of it', () => {
    const cases: [string, string][] = [
      [GITHUB, 'a GitHub token'],
      [
        'github_pat_11ABCDEFG0abcdefghij_KLMNOPQRSTUVWXYZ0123456789abcdefghijklmnop',
        'a GitHub token',
      ],
      ['gho_16C7e42F292c6912E7710c838347Ae178B4a', 'a GitHub token'],
      ['ghs_16C7e42F292c6912E7710c838347Ae178B4a', 'a GitHub token'],
      ['glpat-xY7zQ2mN9pL4kJ8hG6fD', 'a GitLab token'],
      ['sk-proj-4f9K2mX8qL1nB7vC3zR6tY0w', 'an API key'],
      ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'a Stripe key'],
      ['pk_live_4eC39HqLyjWDarjtT1zdp7dc', 'a Stripe key'],
      ['xoxb-2048-4096-aB3dE5fG7hJ9kL1m', 'a Slack token'],
      ['xoxp-2048-4096-aB3dE5fG7hJ9kL1m', 'a Slack token'],
      [AWS_ID, 'an AWS access key'],
      ['npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', 'an npm token'],
      ['AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q', 'a Google API key'],
      [JWT, 'a JSON Web Token'],
      [PEM, 'a private key'],
      [AWS_SECRET, 'a random key or token'],
      [randomBytes(32).toString('base64url'), 'a random key or token'],
    ];
    for (const [secret, noun] of cases) {
      const masked = maskString(secret);
      expect(masked, secret).toEqual({
        text: MASK,
        hint: `[masked: looks like ${noun}, ${secret.length} characters]`,
      });
    }
  });

  it('masks only the secret inside a longer text, and says what it was', () => {
    expect(maskString('postgres://app:correct-horse@db.example.com:5432/app')).toEqual({
      text: `postgres://app:${MASK}@db.example.com:5432/app`,
      hint: '[masked: looks like a password in a URL, 13 characters]',
    });
    expect(maskString('https://:tok3n@example.com')?.text).toBe(`https://:${MASK}@example.com`);
    const command = `curl -H "Authorization: Bearer ${JWT}" https://api.example.com/user`;
    expect(maskString(command)).toEqual({
      text: `curl -H "Authorization: Bearer ${MASK}" https://api.example.com/user`,
      hint: `[masked: looks like a bearer token, ${JWT.length} characters]`,
    });
    expect(maskString('Authorization: Basic YWxpY2U6czNjcjN0cGFzcw==')).toEqual({
      text: `Authorization: Basic ${MASK}`,
      hint: '[masked: looks like basic-auth credentials, 24 characters]',
    });
    expect(maskString(`export AWS_ACCESS_KEY_ID=${AWS_ID} GH=${GITHUB}`)).toEqual({
      text: `export AWS_ACCESS_KEY_ID=${MASK} GH=${MASK}`,
      hint: `[masked: looks like an AWS access key and a GitHub token, 60 characters]`,
    });
    expect(maskString(`config/${randomBytes(30).toString('base64url')}`)?.text).toBe(
      `config/${MASK}`,
    );
    expect(maskString(`key file:\n${PEM}\n(end)`)?.text).toBe(`key file:\n${MASK}\n(end)`);
    expect(maskString('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg')?.text).toBe(MASK);
  });

  it('leaves ordinary long values visible: words, paths, URLs, UUIDs, hashes', () => {
    for (const text of [
      '550e8400-e29b-41d4-a716-446655440000',
      'a691183ff55ff9e9e5b84cbadaf4ed87404bdd29',
      'a691183ff55ff9e9e5b84cbadaf4ed87404bdd294b4b638e28df081ad5263b4c',
      '/home/user/projects/garuda-mcp/packages/mcp-tools/src/mask-secrets.ts',
      'src/components/DashboardSidebarNavigationItem.tsx',
      'https://github.com/modelcontextprotocol/typescript-sdk/blob/main/README.md',
      'https://api.example.com/v1/repos/octocat/hello-world/issues?state=open&per_page=100',
      'thisIsAVeryLongFunctionNameForTestingPurposes',
      'ConstructorParametersOfTheAbstractSingletonFactoryBean',
      'The_quick_brown_fox_jumps_over_the_lazy_dog_123',
      'feature/add-tool-search-and-secret-masking-v2',
      'supercalifragilisticexpialidocious',
      'npm_config_cache_directory_for_this_project',
      'Bearer authentication is described in RFC 6750.',
      'Basic usage: run the tool, then read the result.',
      'use sk-learn for the model; ask the task-runner',
      'https://user@example.com/path (no password)',
      'a'.repeat(10_000),
      '',
    ]) {
      expect(maskString(text), text).toBeUndefined();
    }
  });

  it('stays fast on long hostile text', () => {
    const texts = [
      'y'.repeat(1_000_000),
      'a://'.repeat(250_000),
      'eyJ'.repeat(300_000),
      `${'ghp_'.repeat(200_000)}`,
      'Bearer '.repeat(150_000),
      '-----BEGIN PRIVATE KEY-----'.repeat(40_000),
      randomBytes(600_000).toString('base64'),
    ];
    // Only a hang fails this: CPU time (which a busy machine does not add to), loosely bounded.
    expect(cpuMsOf(() => texts.map((text) => maskString(text)))).toBeLessThan(20_000);
  });
});

describe('callPreview masks secrets', () => {
  it('masks every value under a secret-looking name, at any depth, and counts them', () => {
    const preview = callPreview(tool, {
      query: 'is:open',
      password: 'hunter2',
      headers: { Authorization: 'Token abc', Accept: 'application/json' },
      config: { db: { host: 'db.local', credentials: { user: 'app', pin: 1234 } } },
      tokens: ['one', 'two'],
      apiKey: '',
      auth: { enabled: true, scope: null },
    });
    expect(preview.masked).toBe(6);
    expect(valueOf(preview, 'query')).toBe('"is:open"');
    expect(valueOf(preview, 'password')).toBe(
      '"••••••" [masked: its name looks secret, 7 characters]',
    );
    expect(previewArgumentsText(preview)).toBe(
      [
        '{',
        '  "query": "is:open",',
        '  "password": "••••••" [masked: its name looks secret, 7 characters],',
        '  "headers": {',
        '    "Authorization": "••••••" [masked: its name looks secret, 9 characters],',
        '    "Accept": "application/json"',
        '  },',
        '  "config": {',
        '    "db": {',
        '      "host": "db.local",',
        '      "credentials": {',
        '        "user": "••••••" [masked: its name looks secret, 3 characters],',
        '        "pin": "••••••" [masked: its name looks secret, 4 characters]',
        '      }',
        '    }',
        '  },',
        '  "tokens": [',
        '    "••••••" [masked: its name looks secret, 3 characters],',
        '    "••••••" [masked: its name looks secret, 3 characters]',
        '  ],',
        '  "apiKey": "",',
        '  "auth": {',
        '    "enabled": true,',
        '    "scope": null',
        '  }',
        '}',
      ].join('\n'),
    );
    for (const secret of ['hunter2', 'Token abc', '1234']) {
      expect(previewArgumentsText(preview)).not.toContain(secret);
    }
  });

  it('shows what the README shows', () => {
    expect(
      previewArgumentsText(
        callPreview(tool, { token: GITHUB, url: 'https://me:hunter22@db.local/x' }),
      ),
    ).toBe(
      [
        '{',
        '  "token": "••••••" [masked: its name looks secret, 40 characters],',
        '  "url": "https://me:••••••@db.local/x" [masked: looks like a password in a URL, 8 characters]',
        '}',
      ].join('\n'),
    );
  });

  it('judges names after cleaning, so hidden characters cannot smuggle a secret past it', () => {
    const preview = callPreview(tool, {
      'pass\u200bword': 'hunter2',
      nested: { 'to\u202eken': 'x' },
    });
    expect(preview.masked).toBe(2);
    expect(previewArgumentsText(preview)).not.toContain('hunter2');
  });

  it('masks secret-looking strings under any name, and nothing else', () => {
    const preview = callPreview(tool, {
      command: `git clone https://oauth2:${GITHUB}@github.com/o/r.git`,
      env: ['PATH=/usr/bin', `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`],
      note: JWT,
      id: '550e8400-e29b-41d4-a716-446655440000',
    });
    expect(preview.masked).toBe(3);
    expect(valueOf(preview, 'command')).toBe(
      `"git clone https://oauth2:••••••@github.com/o/r.git" [masked: looks like a GitHub token, ${GITHUB.length} characters]`,
    );
    expect(valueOf(preview, 'env')).toBe(
      '[\n  "PATH=/usr/bin",\n  "AWS_SECRET_ACCESS_KEY=••••••" [masked: looks like a random key or token, 40 characters]\n]',
    );
    expect(valueOf(preview, 'note')).toBe(
      `"••••••" [masked: looks like a JSON Web Token, ${JWT.length} characters]`,
    );
    expect(valueOf(preview, 'id')).toBe('"550e8400-e29b-41d4-a716-446655440000"');
    const text = callPreviewText(preview);
    for (const secret of [GITHUB, AWS_SECRET, JWT]) expectHidden(text, secret);
  });

  it('masks arguments that are not an object too', () => {
    const preview = callPreview(tool, [`Bearer ${GITHUB}`]);
    expect(preview.nonObjectArguments?.value).toBe(
      `[\n  "Bearer ••••••" [masked: looks like a bearer token, ${GITHUB.length} characters]\n]`,
    );
    expect(preview.masked).toBe(1);
    expect(callPreview(tool, GITHUB).nonObjectArguments?.value).toMatch(/^"••••••" \[masked/);
  });

  it('says how many values are masked in the standard wording', () => {
    const one = callPreviewText(callPreview(tool, { token: GITHUB }));
    expect(one.split('\n').at(-1)).toBe('  masked    1 value that looks secret is masked');
    const two = callPreviewText(callPreview(tool, { token: GITHUB, note: JWT }), {
      label: (s) => `<${s.trim()}>`,
    });
    expect(two.split('\n').at(-1)).toBe('  <masked> 2 values that look secret are masked');
    expect(callPreviewText(callPreview(tool, { q: 'x' }))).not.toContain('masked');
  });

  it('masks before capping, so a cut never shows part of a secret', () => {
    for (let pad = 3_960; pad < 4_010; pad += 7) {
      const preview = callPreview(tool, { text: `${'a '.repeat(pad / 2)}${AWS_SECRET} tail` });
      expect(preview.masked).toBe(1);
      expect(preview.arguments[0]?.truncated).toBe(true);
      expectHidden(preview.arguments[0]?.value ?? '', AWS_SECRET);
    }
  });

  it('stays bounded when every value is masked', () => {
    const args: Record<string, string> = {};
    for (let i = 0; i < 200; i++) args[`token_${'x'.repeat(300)}${i}`] = `${GITHUB}${i}`.repeat(50);
    const preview = callPreview(tool, args);
    expect(preview.arguments).toHaveLength(MAX_PREVIEW_ARGUMENTS);
    expect(preview.masked).toBe(MAX_PREVIEW_ARGUMENTS);
    let chars = 0;
    for (const argument of preview.arguments) {
      expect(Array.from(argument.name).length).toBeLessThanOrEqual(MAX_PREVIEW_NAME_CHARS);
      chars += argument.value.length;
    }
    expect(chars).toBeLessThanOrEqual(MAX_PREVIEW_ARGUMENT_CHARS);
    expectHidden(callPreviewText(preview), GITHUB.slice(4));
  });

  it('cannot be made to show a hint for a value that is not masked', () => {
    // U+0001 is what stands in for a masked value until the JSON is written: cleaning removes it.
    const preview = callPreview(tool, { a: '\u00010\u0001', b: '"\u00010\u0001"', token: 'x' });
    expect(valueOf(preview, 'a')).toBe('"0"');
    expect(valueOf(preview, 'b')).toBe('"\\"0\\""');
    expect(preview.masked).toBe(1);
    const proto = callPreview(tool, JSON.parse('{"__proto__": {"secret": "s3cr3t"}}'));
    expect(proto.arguments).toEqual([
      {
        name: '__proto__',
        value: '{\n  "secret": "••••••" [masked: its name looks secret, 6 characters]\n}',
        truncated: false,
      },
    ]);
  });

  it('property: a value under a secret-looking name is never shown', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('token', 'password', 'api_key', 'privateKey', 'Authorization', 'secret'),
        fc.string({ minLength: 1, maxLength: 200 }),
        (name, value) => {
          const preview = callPreview(tool, { [name]: value, other: 1 });
          const shown = valueOf(preview, name) ?? '';
          const visible = preview.arguments.find((a) => a.name === name) !== undefined;
          expect(visible).toBe(true);
          // Cleaning may empty a value (only invisible characters): then nothing is left to hide.
          if (shown !== '""') expect(shown).toMatch(/^"••••••" \[masked: its name looks secret, /);
        },
      ),
    );
  });

  it('property: a token with a known prefix inside any text is never shown', () => {
    const base62 = fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split(''),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(
          'ghp_',
          'gho_',
          'github_pat_',
          'glpat-',
          'sk-',
          'sk_live_',
          'xoxb-',
          'npm_',
          'AIza',
        ),
        fc.array(base62, { minLength: 20, maxLength: 60 }).map((chars) => `${chars.join('')}7`),
        fc.string({ maxLength: 40 }).map((s) => s.replace(/[A-Za-z0-9_-]+$/, '')),
        fc.string({ maxLength: 40 }).map((s) => s.replace(/^[A-Za-z0-9_-]+/, '')),
        (prefix, rest, before, after) => {
          const token = `${prefix}${rest}`;
          const preview = callPreview(tool, { text: `${before} ${token} ${after}` });
          expect(preview.masked).toBe(1);
          expectHidden(previewArgumentsText(preview), rest);
        },
      ),
    );
  });
});

describe('masking hostile text', () => {
  // A guard against quadratic time, not a speed test (the bound only catches a hang).
  it(
    'ReDoS: Basic credentials that decode to 37 000 `:` and a key of capitals are checked in linear time',
    { timeout: 300_000 },
    () => {
      const colons = Buffer.from(`${':'.repeat(37_500)}\u0001`, 'latin1').toString('base64');
      const masked: unknown[] = [];
      const cpuMs = cpuMsOf(() => {
        for (let i = 0; i < 20; i += 1) {
          masked.push(maskString(`Authorization: Basic ${colons}`));
          looksSecretKey('A'.repeat(50_000));
        }
      });
      expect(masked).toEqual(Array.from({ length: 20 }, () => undefined));
      expect(cpuMs).toBeLessThan(20_000);
      expect(maskString(`Basic ${Buffer.from('user:pass').toString('base64')}`)?.text).toBe(
        `Basic ${MASK}`,
      );
    },
  );
});
