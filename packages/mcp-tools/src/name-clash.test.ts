import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SERVER_ORIGINS,
  nameKey,
  settleNames,
  type NameClaim,
  type ServerOrigin,
} from '@garuda/internal';
import { promptName, toolName, toolPrefix } from './tool-name.js';

const claim = (server: string, origin: ServerOrigin, tool: string): NameClaim<string> => ({
  name: toolName(server, tool),
  server,
  origin,
  item: `${server}/${tool}`,
});
const prefix = (server: string, origin: ServerOrigin) => ({
  prefix: toolPrefix(server),
  server,
  origin,
});

describe('settleNames: name squatting by a project server', () => {
  it('gives a `-`/`_` clash to the user server whatever the sort order (my-notes sorts first)', () => {
    const project = claim('my-notes', 'project', 'search');
    const user = claim('my_notes', 'user', 'search');
    expect(project.name).toBe(user.name);
    for (const claims of [
      [project, user],
      [user, project],
    ]) {
      const { kept, clashes } = settleNames(claims, [
        prefix('my-notes', 'project'),
        prefix('my_notes', 'user'),
      ]);
      expect(kept).toEqual(['my_notes/search']);
      expect(clashes).toEqual([
        {
          name: 'mcp__my_notes__search',
          server: 'my-notes',
          origin: 'project',
          keptBy: 'my_notes',
          keptByOrigin: 'user',
        },
      ]);
    }
  });

  it("keeps the user's prefix while the user's server is down: the project's tool is not offered", () => {
    const { kept, clashes } = settleNames(
      [claim('my-notes', 'project', 'search'), claim('my-notes', 'project', 'write')],
      [prefix('my-notes', 'project'), prefix('my_notes', 'user')],
    );
    expect(kept).toEqual([]);
    expect(clashes.map((c) => [c.name, c.keptBy])).toEqual([
      ['mcp__my_notes__search', 'my_notes'],
      ['mcp__my_notes__write', 'my_notes'],
    ]);
  });

  it('compares without case (a host may): a project tool differing only in case loses', () => {
    // `a__B` (project) and `a` + tool `b__search`… both sides under different prefixes.
    const user = claim('a', 'user', 'x__search');
    const project = claim('a__x', 'project', 'SEARCH');
    expect(user.name).not.toBe(project.name);
    expect(nameKey(user.name)).toBe(nameKey(project.name));
    const { kept, clashes } = settleNames([project, user]);
    expect(kept).toEqual(['a/x__search']);
    expect(clashes[0]).toMatchObject({ server: 'a__x', keptBy: 'a' });
  });

  it('refuses a project name crafted to equal a 64-character shortened user name (hash suffix)', () => {
    const long = `x__${'n'.repeat(80)}`;
    const user = claim('u', 'user', long);
    expect(user.name).toHaveLength(64);
    // The project server `u__x` lists a tool whose plain name is the user's shortened one.
    const crafted = user.name.slice(toolPrefix('u__x').length);
    const project = claim('u__x', 'project', crafted);
    expect(project.name).toBe(user.name);
    const upper = claim('u__x', 'project', crafted.toUpperCase());
    const { kept, clashes } = settleNames(
      [project, upper, user],
      [prefix('u', 'user'), prefix('u__x', 'project')],
    );
    expect(kept).toEqual([`u/${long}`]);
    expect(clashes.map((c) => c.keptBy)).toEqual(['u', 'u']);
    // Without the user's server configured, nothing reserves the name: the first claim keeps it.
    const alone = settleNames([upper, project], [prefix('u__x', 'project')]);
    expect(alone.kept).toHaveLength(1);
    expect(alone.clashes).toHaveLength(1);
  });

  it('orders the origins host, user, project, imported; the same origin by server name', () => {
    expect(SERVER_ORIGINS).toEqual(['host', 'user', 'project', 'imported']);
    const all = (['imported', 'project', 'user', 'host'] as const).map((origin, i) =>
      claim(['a-b', 'a_b', 'a-b', 'a_b'][i] as string, origin, 't'),
    );
    expect(settleNames(all).kept).toEqual(['a_b/t']);
    expect(settleNames(all).kept).toEqual(settleNames([...all].reverse()).kept);
    const twoOfYours = settleNames([claim('a_b', 'user', 't'), claim('a-b', 'user', 't')]);
    expect(twoOfYours.kept).toEqual(['a-b/t']);
  });

  it('never depends on the order of the claims, and keeps one item per name key (property)', () => {
    const origin = fc.constantFrom(...SERVER_ORIGINS);
    const server = fc.constantFrom('a', 'a-b', 'a_b', 'a__b', 'b');
    const tool = fc.constantFrom('t', 'T', 'b__t', 'B__T', 'x');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ server, tool, origin }), {
          selector: (c) => `${c.server}/${c.tool}`,
          maxLength: 12,
        }),
        (raw) => {
          // One origin per server, as a configuration gives.
          const origins = new Map(raw.map((c) => [c.server, c.origin]));
          const claims = raw.map((c) =>
            claim(c.server, origins.get(c.server) as ServerOrigin, c.tool),
          );
          const prefixes = [...origins].map(([s, o]) => prefix(s, o));
          const one = settleNames(claims, prefixes);
          const two = settleNames([...claims].reverse(), [...prefixes].reverse());
          expect([...one.kept].sort()).toEqual([...two.kept].sort());
          expect(one.clashes).toEqual(two.clashes);
          const keys = claims.filter((c) => one.kept.includes(c.item)).map((c) => nameKey(c.name));
          expect(new Set(keys).size).toBe(keys.length);
          expect(one.kept.length + one.clashes.length).toBe(claims.length);
        },
      ),
    );
  });

  it('names prompts <server>__<prompt>', () => {
    expect(promptName('notes', 'review')).toBe('notes__review');
  });
});
