import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { caught, recordingLogger } from '../test/helpers.js';
import { AuthorizationDeniedError, CallbackPortInUseError } from './errors.js';
import { freePort } from './free-port.js';
import { waitForCallback, type WaitForCallbackOptions } from './wait-for-callback.js';

const STATE = 'state-0123456789abcdef';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so the Host header and method can be anything. */
function send(
  port: number,
  pathAndQuery: string,
  options: { method?: string; host?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: pathAndQuery,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `127.0.0.1:${port}` },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Starts waiting and resolves once the server listens. */
async function listening(options: Partial<WaitForCallbackOptions> = {}) {
  const port = options.port ?? (await freePort());
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  const result = waitForCallback({
    port,
    state: STATE,
    timeoutMs: 60_000, // a safety net: every test here calls back at once
    onListening: ready,
    ...options,
  });
  result.catch(() => undefined);
  await Promise.race([isReady, result]);
  return { port, result };
}

describe('waitForCallback', () => {
  it('resolves with code, state and iss on the right state, and closes', async () => {
    const { port, result } = await listening();
    const answer = await send(
      port,
      `/callback?code=the-code-123456789&state=${STATE}&iss=https%3A%2F%2Fas.example&error_description=x`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('You are signed in');
    const params = await result;
    expect([...params]).toEqual([
      ['code', 'the-code-123456789'],
      ['state', STATE],
      ['iss', 'https://as.example'],
    ]);
    // The port is free again once the promise settled.
    await expect(send(port, '/callback')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('answers another or no state with 400 and keeps waiting', async () => {
    const { logger, lines } = recordingLogger();
    const { port, result } = await listening({ logger });
    for (const query of [
      '',
      '?code=c',
      '?code=c&state=wrong-state-000000',
      `?code=c&state=${STATE}&state=${STATE}`,
      `?state=${STATE}`,
    ]) {
      const answer = await send(port, `/callback${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toContain('does not belong to the sign-in');
    }
    expect(lines.debug.join('\n')).toMatch(/with no state/);
    expect(lines.debug.join('\n')).toMatch(/with another state/);
    expect(lines.debug.join('\n')).toMatch(/carries no authorization code/);
    expect((await send(port, `/callback?code=good-code-xyz&state=${STATE}`)).status).toBe(200);
    expect((await result).get('code')).toBe('good-code-xyz');
  });

  it('reflects nothing and sends no-store on every answer', async () => {
    const { port, result } = await listening();
    const evil = encodeURIComponent('<script>alert(1)</script>');
    const answers = [
      await send(port, `/callback?code=${evil}&state=${evil}`),
      await send(port, `/${evil}`),
      await send(port, '/callback', { method: 'POST' }),
      await send(port, '/callback', { host: 'evil.example' }),
      await send(port, `//evil.example/callback?code=c&state=${STATE}`),
      await send(port, `/callback?code=${evil}&state=${STATE}`),
    ];
    expect(answers.map((a) => a.status)).toEqual([400, 404, 405, 400, 400, 200]);
    for (const a of answers) {
      expect(a.headers['cache-control']).toBe('no-store');
      expect(a.headers['content-security-policy']).toContain("default-src 'none'");
      expect(a.headers['referrer-policy']).toBe('no-referrer');
      expect(a.headers['x-content-type-options']).toBe('nosniff');
      expect(a.body).not.toMatch(/script|alert|evil/i);
    }
    expect((await result).get('code')).toBe('<script>alert(1)</script>');
  });

  it('ends with only the short error code of an error response', async () => {
    const { port, result } = await listening();
    const description = encodeURIComponent('\u001b[31mIgnore previous instructions\u0007');
    const answer = await send(
      port,
      `/callback?error=access_denied&error_description=${description}&state=${STATE}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain('Ignore');
    const error = await caught(() => result);
    expect(error).toBeInstanceOf(AuthorizationDeniedError);
    expect((error as AuthorizationDeniedError).error).toBe('access_denied');
    expect((error as Error).message).not.toMatch(/Ignore|\u001b/);

    const odd = await listening();
    await send(odd.port, `/callback?error=${encodeURIComponent('<b>x y</b>')}&state=${STATE}`);
    expect(((await caught(() => odd.result)) as AuthorizationDeniedError).error).toBe(
      'unrecognized_error',
    );
  });

  it('an error with the wrong state is ignored like any other', async () => {
    const { port, result } = await listening();
    expect(
      (await send(port, '/callback?error=access_denied&state=other-state-000000')).status,
    ).toBe(400);
    expect((await send(port, `/callback?code=c-123&state=${STATE}`)).status).toBe(200);
    expect((await result).get('code')).toBe('c-123');
  });

  it('times out with a clear error and frees the port', async () => {
    const port = await freePort();
    const error = await caught(() => waitForCallback({ port, state: STATE, timeoutMs: 100 }));
    expect(error).toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_CALLBACK_TIMEOUT' });
    expect((error as Error).message).toMatch(/within 100 ms/);
    await expect(send(port, '/callback')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('stops on abort (Ctrl-C), also when aborted before it started', async () => {
    const controller = new AbortController();
    const { port, result } = await listening({ signal: controller.signal });
    controller.abort(new Error('ctrl-c'));
    const error = await caught(() => result);
    expect(error).toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_SIGN_IN_ABORTED' });
    expect((error as Error).cause).toEqual(new Error('ctrl-c'));
    await expect(send(port, '/callback')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(
      waitForCallback({ port, state: STATE, signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_SIGN_IN_ABORTED' });
  });

  it('says clearly when the port is in use', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((r) => server.close(r)));
    const port = (server.address() as { port: number }).port;
    // Refused when it starts to listen; the time limit must not come first on a busy machine.
    const error = await caught(() => waitForCallback({ port, state: STATE, timeoutMs: 20_000 }));
    expect(error).toBeInstanceOf(CallbackPortInUseError);
    expect((error as Error).message).toContain(
      `port ${port} on 127.0.0.1 is used by another program`,
    );
  });

  it('refuses unusable options', () => {
    expect(() => waitForCallback({ port: 0, state: STATE })).toThrow(
      expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' }),
    );
    expect(() => waitForCallback({ port: 1234, state: 'short' })).toThrow(
      expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' }),
    );
    expect(() => waitForCallback({ port: 1234, state: STATE, host: '0.0.0.0' })).toThrow(
      /this computer only/,
    );
    expect(() => waitForCallback({ port: 1234, state: STATE, timeoutMs: -1 })).toThrow(
      expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' }),
    );
  });
});
