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
    expect(hiddenTempHint(local('node', ['/tmp/x/server.js']), ['/work/repo'], 'bwrap')).toBe(
      "/tmp/x/server.js is under /tmp, which the sandbox replaces with an empty folder: add its folder to the sandbox's read paths (the sandbox.readPaths option)",
    );
    expect(hiddenTempHint(local('/var/tmp/bin/srv'), [], 'bwrap')).toMatch(
      /^\/var\/tmp\/bin\/srv is under \/var\/tmp/,
    );
    expect(hiddenTempHint(local('node', ['x.js'], '/tmp/work'), [], 'bwrap')).toMatch(
      /^\/tmp\/work is under/,
    );
  });

  it('says nothing for paths the sandbox shows: the project, the read paths, elsewhere, relative', () => {
    expect(
      hiddenTempHint(local('node', ['/tmp/repo/server.js']), ['/tmp/repo'], 'bwrap'),
    ).toBeUndefined();
    expect(hiddenTempHint(local('node', ['/tmp/repo']), ['/tmp/repo'], 'bwrap')).toBeUndefined();
    expect(hiddenTempHint(local('node', ['/opt/srv.js', 'tmp/x']), [], 'bwrap')).toBeUndefined();
    expect(hiddenTempHint(local('node', ['/tmpfoo/x.js']), [], 'bwrap')).toBeUndefined();
    expect(hiddenTempHint(local('node', ['--flag=/tmp/x']), [], 'bwrap')).toBeUndefined();
  });

  it("says nothing under Seatbelt, whose /tmp is the machine's (macOS), nor without a sandbox", () => {
    const server = local('node', ['/tmp/x/server.js']);
    expect(hiddenTempHint(server, [], 'bwrap')).toMatch(/^\/tmp\/x\/server\.js is under \/tmp/);
    expect(hiddenTempHint(server, [], 'seatbelt')).toBeUndefined();
    expect(hiddenTempHint(server, [], 'none')).toBeUndefined();
  });
});
