import { expect } from 'vitest';
import type {
  ImportableServer,
  ImportClient,
  ImportServer,
  ImportSourcesResult,
  NotImportableServer,
} from '../src/import-types.js';
import { validateServer } from '../src/validate-server.js';

/** The server read under `sourceName` (from `client`, when given); it must be there. */
export function byName(
  result: ImportSourcesResult,
  sourceName: string,
  client?: ImportClient,
): ImportServer {
  const found = result.servers.find(
    (s) => s.sourceName === sourceName && (client === undefined || s.client === client),
  );
  if (found === undefined) throw new Error(`no server ${sourceName} in the result`);
  return found;
}

/** The server read under `sourceName`; it must be importable. */
export function importable(
  result: ImportSourcesResult,
  sourceName: string,
  client?: ImportClient,
): ImportableServer {
  const server = byName(result, sourceName, client);
  if (!server.importable) {
    throw new Error(
      `${sourceName} is not importable: ${server.problems.map((p) => p.message).join(' | ')}`,
    );
  }
  return server;
}

/** The server read under `sourceName`; it must not be importable. */
export function refused(
  result: ImportSourcesResult,
  sourceName: string,
  client?: ImportClient,
): NotImportableServer {
  const server = byName(result, sourceName, client);
  if (server.importable)
    throw new Error(`${sourceName} is importable: ${JSON.stringify(server.entry)}`);
  return server;
}

/** The codes of a server's warnings, in order. */
export const codes = (server: ImportServer): string[] => server.warnings.map((w) => w.code);

/** Each named server is not importable, and its first problem matches what is given for it. */
export function expectFirstProblems(
  result: ImportSourcesResult,
  expected: Record<string, object>,
): void {
  for (const [sourceName, problem] of Object.entries(expected)) {
    expect(refused(result, sourceName).problems[0], sourceName).toMatchObject(problem);
  }
}

/** Every entry returned passes validation; every note is one clean line. */
export function checkInvariants(result: ImportSourcesResult): void {
  const names = new Set<string>();
  for (const server of result.servers) {
    for (const note of [...server.warnings, ...(server.importable ? [] : server.problems)]) {
      expect(note.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e]/);
      expect(note.message.length).toBeGreaterThan(0);
    }
    if (!server.importable) {
      expect(server.problems.length).toBeGreaterThan(0);
      continue;
    }
    expect(names.has(server.name)).toBe(false);
    names.add(server.name);
    const { def, issues } = validateServer(server.name, server.entry, server.scope);
    expect(issues).toEqual([]);
    expect(def).toBeDefined();
  }
  for (const file of result.files) {
    for (const note of file.problems) expect(note.message).not.toMatch(/[\u0000-\u001f]/);
  }
}
