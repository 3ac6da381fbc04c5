// The README's Quick start must run as written: its home is a throwaway folder and the one line
// that names the server's address is pointed at the fixture server; it must print what the
// README shows.
import { fileURLToPath } from 'node:url';
import {
  quickStartTest,
  startHttpFixture,
  tempDir,
  type HttpFixture,
  type TempDir,
} from '@garuda/test-utils';
import { afterAll, beforeAll, expect, it } from 'vitest';

const SERVER_URL = "{ url: 'http://127.0.0.1:3000/mcp' }";
const WHERE = "{ root: '/my/project', home: '/my/.garuda', userHome: '/my', env: {}, servers }";
let fixture: HttpFixture;
let home: TempDir;

beforeAll(async () => {
  fixture = await startHttpFixture({ mode: 'normal' });
  home = await tempDir('garuda-gateway-quick-start-');
});

afterAll(async () => {
  await fixture.close();
  await home.cleanup();
});

quickStartTest({
  packageDir: fileURLToPath(new URL('..', import.meta.url)),
  prepare: (code) => {
    expect(code).toContain(SERVER_URL);
    expect(code).toContain(WHERE);
    const where = JSON.stringify({
      root: home.path,
      home: `${home.path}/.garuda`,
      userHome: home.path,
      env: {},
    });
    return code
      .replace(SERVER_URL, `{ url: ${JSON.stringify(fixture.url.href)} }`)
      .replace(WHERE, `{ ...${where}, servers }`);
  },
});

it('the Quick start talked to the fixture server', () => {
  expect(fixture.requests).toBeGreaterThan(0);
});
