import { localDefaults as local, remoteDefaults as remote } from '@garuda/test-utils';
import type { LocalServerDef, RemoteServerDef } from '../src/server-types.js';

/**
 * A local server's definition with every default the schema fills in, written out in the test
 * utilities rather than taken from the package, so that a test of the defaults compares against
 * the design.
 */
export function localDefaults(command: string): LocalServerDef {
  return local(command);
}

/** A remote server's definition with every default the schema fills in (see {@link localDefaults}). */
export function remoteDefaults(url: string): RemoteServerDef {
  return remote(url);
}
