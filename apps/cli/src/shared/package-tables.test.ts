import { HOSTS, IMPORT_CLIENTS, TOOL_EXPOSURES } from '@garuda/mcp-config';
import { GATEWAY_APPROVALS } from '@garuda/mcp-gateway';
import { APPROVAL_MODES } from '@garuda/mcp-manager';
import { TOKEN_STORAGES } from '@garuda/mcp-oauth';
import { describe, expect, it } from 'vitest';
import * as copies from './package-tables.js';

// Help and flag checks read the copies (so they load no package); the packages hold the truth.
/** What `garuda-mcp install` takes, as install.ts derives it from the hosts' descriptors. */
const INSTALL_HOSTS = [...HOSTS]
  .sort((a, b) => a.installOrder - b.installOrder)
  .map((host) => host.installName);

describe('the CLI copies of the packages tables', () => {
  it.each([
    ['APPROVAL_MODES', copies.APPROVAL_MODES, APPROVAL_MODES],
    ['TOOL_EXPOSURES', copies.TOOL_EXPOSURES, TOOL_EXPOSURES],
    ['GATEWAY_APPROVALS', copies.GATEWAY_APPROVALS, GATEWAY_APPROVALS],
    ['IMPORT_CLIENTS', copies.IMPORT_CLIENTS, IMPORT_CLIENTS],
    ['INSTALL_HOSTS', copies.INSTALL_HOSTS, INSTALL_HOSTS],
    ['TOKEN_STORAGES', copies.TOKEN_STORAGES, TOKEN_STORAGES],
  ])('%s equals the package table, in order', (_name, copy, original) => {
    expect(JSON.stringify(copy)).toBe(JSON.stringify(original));
  });
});
