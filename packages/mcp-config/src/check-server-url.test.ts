import { describe, expect, it } from 'vitest';
import { checkServerUrl } from './check-server-url.js';
import { ConfigProblemCode } from './config-problem.js';

const OK = 'ok';
type Expected = typeof OK | ConfigProblemCode;

type Row = readonly [url: string, asUser: Expected, asProject: Expected];

/** Rows for URLs that get `code` whatever the source of the server. */
const everywhere = (code: ConfigProblemCode, urls: readonly string[]): Row[] =>
  urls.map((url) => [url, code, code]);

// [url, as a user's server, as a project's server]
const TABLE: readonly Row[] = [
  // public controls
  ['https://mcp.example.com/mcp', OK, OK],
  ['https://mcp.example.com:8443/mcp?x=1', OK, OK],
  ['https://93.184.216.34/mcp', OK, OK],
  ['https://[2606:4700:4700::1111]/mcp', OK, OK],
  ['HTTPS://MCP.EXAMPLE.COM/mcp', OK, OK],
  ['https://localhost.example.com/mcp', OK, OK],
  // http
  ['http://localhost:3000/mcp', OK, ConfigProblemCode.URL_SCHEME],
  ['http://127.0.0.1:3000/mcp', OK, ConfigProblemCode.URL_SCHEME],
  ['http://[::1]:3000/mcp', OK, ConfigProblemCode.URL_SCHEME],
  ['http://LOCALHOST/mcp', OK, ConfigProblemCode.URL_SCHEME],
  ...everywhere(ConfigProblemCode.URL_SCHEME, [
    'http://localhost./mcp',
    'http://mcp.example.com/mcp',
    'http://10.0.0.1/mcp',
    // other schemes
    'ftp://example.com/mcp',
    'file:///etc/passwd',
    'ws://example.com/mcp',
    'javascript:alert(1)',
  ]),
  // credentials and fragments
  ...everywhere(ConfigProblemCode.URL_CREDENTIALS, [
    'https://user:pass@example.com/mcp',
    'https://user@example.com/mcp',
    'https://@example.com/mcp',
    'https://:@example.com/mcp',
    'https://127.0.0.1:80@evil.example/mcp',
  ]),
  ...everywhere(ConfigProblemCode.URL_FRAGMENT, [
    'https://example.com/mcp#frag',
    'https://example.com/mcp#',
  ]),
  ['https://example.com/a@b', OK, OK],
  // unusable
  ...everywhere(ConfigProblemCode.URL_INVALID, [
    'not a url',
    '',
    'https://',
    ' https://example.com/mcp',
    'https://exa\tmple.com/mcp',
    'https://example.com/mcp\n',
    'https://example.com/\u202emcp',
    `https://example.com/${'a'.repeat(9000)}`,
  ]),
  // this machine, in every spelling
  ['https://localhost/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://LOCALHOST/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://localhost./mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://localhost../mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://foo.localhost/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://a.b.localhost./mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  [
    'https://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/mcp',
    OK,
    ConfigProblemCode.URL_NOT_PUBLIC,
  ],
  ['https://127.0.0.1/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://[::1]/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://[::ffff:127.0.0.1]/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://0x7f000001/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://2130706433/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://127.1/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://0177.0.0.1/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://0.0.0.0/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://[::]/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  // private and special addresses
  ['https://10.0.0.1/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://192.168.1.10/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://172.16.0.1/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://100.64.0.1/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://169.254.169.254/latest/meta-data', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://168.63.129.16/', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://[fd00::1]/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://[fe80::1]/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://[64:ff9b::a9fe:a9fe]/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://[2002:a9fe:a9fe::1]/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://[::ffff:10.0.0.1]/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
  ['https://224.0.0.1/mcp', OK, ConfigProblemCode.URL_NOT_PUBLIC],
];

describe('checkServerUrl', () => {
  for (const [url, asUser, asProject] of TABLE) {
    const label =
      url.length > 60 ? `${url.slice(0, 40)}… (${url.length} chars)` : JSON.stringify(url);
    it(`${label}: user ${asUser}, project ${asProject}`, () => {
      for (const [source, expected] of [
        ['user', asUser],
        ['project', asProject],
      ] as const) {
        const result = checkServerUrl(url, source);
        if (expected === OK) {
          expect(result, `${source}: ${JSON.stringify(result)}`).toMatchObject({ ok: true });
          if (result.ok) expect(result.url).toBeInstanceOf(URL);
        } else {
          expect(result, source).toMatchObject({ ok: false, code: expected });
          if (!result.ok) {
            expect(result.message).toMatch(/^URL "/);
            expect(result.message).not.toMatch(/[\u0000-\u001f\u202e]/);
            expect(result.message.length).toBeLessThan(400);
          }
        }
      }
    });
  }

  it('names the address and its class for a project', () => {
    const result = checkServerUrl('https://0x7f000001/mcp', 'project');
    expect(result).toMatchObject({
      ok: false,
      message: expect.stringContaining('points at 127.0.0.1, a loopback address'),
    });
    expect(checkServerUrl('https://169.254.169.254/', 'project')).toMatchObject({
      message: expect.stringContaining('a cloud metadata address'),
    });
  });

  it('returns the parsed URL', () => {
    const result = checkServerUrl('https://MCP.Example.com:443/a/../mcp?x=1', 'project');
    expect(result.ok && result.url.href).toBe('https://mcp.example.com/mcp?x=1');
  });

  it('throws only for programming errors', () => {
    expect(() => checkServerUrl(1 as never, 'user')).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    expect(() => checkServerUrl('https://example.com', 'other' as never)).toThrow(/source/);
  });
});
