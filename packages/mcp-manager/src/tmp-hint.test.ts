import type { LocalServerConfig } from '@garuda/mcp-config';
import { describe, expect, it } from 'vitest';
import { hiddenTempHint } from './tmp-hint.js';

function local(command: string, args: string[] = [], cwd?: string): LocalServerConfig {
  return {
    kind: 'local',
    def: { command, args, ...(cwd === undefined ? {} : { cwd }) },
  } as unknown as LocalServerConfig;
}

describe('hiddenTempHint', () => {
  it('names the first path under /tmp or /var/tmp that the sandbox would hide', () => {
    expect(hiddenTempHint(local('node', ['/tmp/x/server.js']), ['/work/repo'])).toBe(
      "/tmp/x/server.js is under /tmp, which the sandbox replaces with an empty folder: add its folder to the sandbox's read paths",
    );
    expect(hiddenTempHint(local('/var/tmp/bin/srv'), [])).toMatch(
      /^\/var\/tmp\/bin\/srv is under \/var\/tmp/,
    );
    expect(hiddenTempHint(local('node', ['x.js'], '/tmp/work'), [])).toMatch(
      /^\/tmp\/work is under/,
    );
  });

  it('says nothing for paths the sandbox shows: the project, the read paths, elsewhere, relative', () => {
    expect(hiddenTempHint(local('node', ['/tmp/repo/server.js']), ['/tmp/repo'])).toBeUndefined();
    expect(hiddenTempHint(local('node', ['/tmp/repo']), ['/tmp/repo'])).toBeUndefined();
    expect(hiddenTempHint(local('node', ['/opt/srv.js', 'tmp/x']), [])).toBeUndefined();
    expect(hiddenTempHint(local('node', ['/tmpfoo/x.js']), [])).toBeUndefined();
    expect(hiddenTempHint(local('node', ['--flag=/tmp/x']), [])).toBeUndefined();
  });
});
