import { errnoCode, kindOf } from '@garuda/internal';
import { createServer, type AddressInfo } from 'node:net';
import { invalidOption } from './errors.js';

/**
 * Asks the operating system for a TCP port that is free right now on `host`, by listening on
 * port 0 and closing again. Another program could take it before it is used; the callback
 * server reports that clearly, and the provider then picks another.
 *
 * @param host - the address to check, default `127.0.0.1`
 * @returns a port number between 1 and 65535
 * @throws Error when nothing can listen on `host` at all (the system error, with its `code`)
 * @example
 * ```ts
 * const port = await freePort(); // e.g. 53121
 * ```
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  if (typeof host !== 'string' || host === '') {
    throw invalidOption(`host must be a non-empty string, got ${kindOf(host)}`);
  }
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Whether something could listen on `host:port` now, by trying it. Only "in use" and "not
 * allowed" count as taken; other failures are passed on.
 * @internal
 */
export async function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EADDRINUSE' || code === 'EACCES') return false;
    throw error;
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return true;
}

/** Whether `value` is a usable TCP port number. @internal */
export function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65_535;
}
