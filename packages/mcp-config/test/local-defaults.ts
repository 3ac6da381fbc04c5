import { localDefaults as defaults } from '@garuda/test-utils';
import type { LocalServerDef } from '../src/server-types.js';

/**
 * A local server's definition with every default the schema fills in, written out in the test
 * utilities rather than taken from the package, so that a test of the defaults compares against
 * the design.
 */
export function localDefaults(command: string): LocalServerDef {
  return defaults(command);
}
