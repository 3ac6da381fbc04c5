import type { RemoteServerConfig } from '@garuda/mcp-config';

/** True when the config gives an `Authorization` header: it wins over OAuth. @internal */
export function hasStaticAuthorization(server: RemoteServerConfig): boolean {
  return Object.keys(server.headers).some((name) => name.toLowerCase() === 'authorization');
}
