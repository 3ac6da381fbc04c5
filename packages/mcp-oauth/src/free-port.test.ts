import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, isPort, isPortFree } from './free-port.js';

describe('freePort', () => {
  it('returns a port something can listen on', async () => {
    const port = await freePort();
    expect(isPort(port)).toBe(true);
    expect(await isPortFree(port)).toBe(true);
  });

  it('isPortFree says false for a port in use', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      expect(await isPortFree(port)).toBe(false);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('refuses an empty host', async () => {
    await expect(freePort('')).rejects.toThrow(/host/);
  });
});
