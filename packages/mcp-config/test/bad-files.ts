import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { ConfigProblemCode, type ConfigProblem } from '../src/config-problem.js';
import { loadConfig } from '../src/load-config.js';
import { positionOfText, type TempDirs } from './temp-dir.js';

/** A file with one problem, and what loadConfig must report about it. */
export interface BadCase {
  readonly name: string;
  /** The file content, or a function that makes the file at `file` itself. */
  readonly content: string | Buffer | ((file: string) => Promise<void>);
  readonly source?: 'user' | 'project';
  readonly code: ConfigProblemCode;
  readonly server?: string;
  readonly field?: string;
  /** Text whose first occurrence is the place the problem must point at. */
  readonly at?: string;
  /** Whether the good server in the same file must still load. */
  readonly goodLoads: boolean;
  /** A piece of the message that says what to do. */
  readonly says?: string;
}

function findProblem(problems: readonly ConfigProblem[], c: BadCase): ConfigProblem | undefined {
  return problems.find(
    (p) =>
      p.code === c.code &&
      (c.server === undefined || p.server === c.server) &&
      (c.field === undefined || p.field === c.field),
  );
}

/**
 * One test per case, named `reports <case name>`: the file is written (or made) in a new folder of
 * `dirs` and loaded as the case's source, and the problem must be there, point at the right place
 * and say what to do, with nothing from the file unescaped and only the good server loaded (when
 * the case says it loads). Call inside a `describe`.
 */
export function itReportsEach(dirs: TempDirs, cases: readonly BadCase[]): void {
  for (const c of cases) {
    it(`reports ${c.name}`, async () => {
      const dir = await dirs.create();
      let file = path.join(dir, 'mcp.json');
      if (typeof c.content === 'function') {
        await c.content(file);
        if (c.name.includes('ENOTDIR')) file = path.join(file, 'mcp.json');
      } else {
        await writeFile(file, c.content);
      }
      const source = c.source ?? 'user';
      const result = await loadConfig({
        ...(source === 'user' ? { userFile: file } : { projectFile: file }),
        env: {},
      });

      const problem = findProblem(result.problems, c);
      expect(problem, JSON.stringify(result.problems, null, 2)).toBeDefined();
      expect(problem?.file).toBe(file);
      expect(problem?.message).toMatch(/\S/);
      if (c.says !== undefined) expect(problem?.message).toContain(c.says);
      if (c.at !== undefined && typeof c.content === 'string') {
        expect({ line: problem?.line, column: problem?.column }).toEqual(
          positionOfText(c.content, c.at),
        );
      }
      if (problem?.line !== undefined && c.code === ConfigProblemCode.INVALID_JSON) {
        expect(problem.message).toContain(`line ${problem.line}, column ${problem.column}`);
      }
      for (const p of result.problems) {
        expect(p.file).toBe(file);
        // Nothing from the file reaches a message unescaped.
        expect(p.message).not.toMatch(/[\u0000-\u001f\u007f\u202a-\u202e]/);
      }
      const names = result.servers.map((s) => s.name);
      expect(names.includes('good')).toBe(c.goodLoads);
      expect(names).not.toContain('bad');
    });
  }
}
