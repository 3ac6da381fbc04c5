// The README's Quick start must run as written: the one line that names the server's address is
// pointed at the fixture server, and the result must print what the README shows.
import { fileURLToPath } from 'node:url';
import { quickStartTest, startHttpFixture, type HttpFixture } from '@garuda/test-utils';
import { afterAll, beforeAll, expect, it } from 'vitest';

const SERVER_URL = "new URL('http://127.0.0.1:3000/mcp')";
let fixture: HttpFixture;

beforeAll(async () => {
  fixture = await startHttpFixture({ mode: 'normal' });
});

afterAll(async () => {
  await fixture.close();
});

quickStartTest({
  packageDir: fileURLToPath(new URL('..', import.meta.url)),
  prepare: (code) => {
    expect(code).toContain(SERVER_URL);
    return code.replace(SERVER_URL, `new URL(${JSON.stringify(fixture.url.href)})`);
  },
});

it('the Quick start talked to the fixture server', () => {
  expect(fixture.requests).toBeGreaterThan(0);
});
