// The MCP Apps the manager serves: those of the running servers, from the part of each server's
// pinned list that passed the pin check (an app whose change waits for the user's consent is
// served as it was allowed, or not at all when it is new).
import { appsOf, type McpApp } from './app-pins.js';
import type { ServerRegistry } from '../start/server-registry.js';

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every running server's apps, by server, then URI. @internal */
export function appList(registry: ServerRegistry): McpApp[] {
  return [...registry.records.values()]
    .filter((record) => record.state === 'connected' && registry.connections.has(record.name))
    .sort((a, b) => byCodeUnit(a.name, b.name))
    .flatMap((record) => appsOf(record.name, record.raw).sort((a, b) => byCodeUnit(a.uri, b.uri)));
}
