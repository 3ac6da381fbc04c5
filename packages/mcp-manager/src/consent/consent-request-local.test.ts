// The consent request of a local server: every field, the sandbox, packages, cleaning.
import type { SandboxInfo } from '@garuda/mcp-transport';
import { allStrings, hostileLeftovers } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { serverConsentRequest } from './consent-request.js';
import { PROJECT_FILE, context, local, noSandbox } from '../../test/support/consent.js';
import { sandboxText } from '../status/wording.js';

describe('serverConsentRequest: a local server', () => {
  it('fills every field', () => {
    const request = serverConsentRequest(
      local(
        {
          command: 'github-mcp-server',
          args: ['stdio', '--toolsets', 'all repos'],
          env: {
            GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}',
            LOG: 'debug',
            MISSING: '${NOPE}',
          },
          cwd: 'tools',
          network: true,
          writePaths: ['/tmp/out'],
        },
        {
          GITHUB_PERSONAL_ACCESS_TOKEN: {
            value: 'ghp_secret',
            source: { kind: 'vars', names: ['GITHUB_TOKEN'], missing: [] },
          },
          LOG: { value: 'debug', source: { kind: 'literal' } },
          MISSING: { value: '', source: { kind: 'vars', names: ['NOPE'], missing: ['NOPE'] } },
        },
      ),
      context,
    );
    expect(request).toEqual({
      kind: 'server',
      server: 'srv',
      ...PROJECT_FILE,
      risk: { tier: 'high', batching: 'serialized', text: 'high (capabilities not declared)' },
      commandLine: "github-mcp-server stdio --toolsets 'all repos'",
      cwd: 'tools',
      sandbox: { kind: 'bwrap' },
      network: true,
      env: [
        {
          name: 'GITHUB_PERSONAL_ACCESS_TOKEN',
          source: { kind: 'vars', names: ['GITHUB_TOKEN'], missing: [] },
        },
        { name: 'LOG', source: { kind: 'literal' } },
        { name: 'MISSING', source: { kind: 'vars', names: ['NOPE'], missing: ['NOPE'] } },
      ],
      writePaths: ['/tmp/out'],
      warnings: [
        'the environment variable "GITHUB_PERSONAL_ACCESS_TOKEN" takes ${GITHUB_TOKEN}, which looks like a secret: the server can read it',
        'it has network access: it can send what it reads to any address',
      ],
    });
    expect(JSON.stringify(request)).not.toContain('ghp_secret');
  });

  it("names the server's own home when the manager's folder is known", () => {
    const homes = '/home/ada/.local/share/garuda-mcp/servers';
    const request = serverConsentRequest(local(), { ...context, serverHomesDir: homes });
    // A project's server: one home per project.
    expect(request.home).toMatch(
      /^\/home\/ada\/\.local\/share\/garuda-mcp\/servers\/srv\.[0-9a-f]{12}$/,
    );
    expect(serverConsentRequest(local(), context)).not.toHaveProperty('home');
  });

  it('names the sandbox, in the same words as the status row', () => {
    const words = (sandbox: SandboxInfo) =>
      sandboxText(serverConsentRequest(local(), { ...context, sandbox }).sandbox);
    expect(serverConsentRequest(local(), context).sandbox).toEqual({ kind: 'bwrap' });
    expect(words(context.sandbox)).toBe('bubblewrap');
    expect(words({ kind: 'seatbelt' })).toBe('seatbelt');
    expect(serverConsentRequest(local(), noSandbox).sandbox).toEqual({
      kind: 'none',
      reason: 'bubblewrap is not installed: install the "bubblewrap" package',
    });
    expect(words(noSandbox.sandbox)).toBe(
      'no OS sandbox: bubblewrap is not installed: install the "bubblewrap" package',
    );
    expect(words({ kind: 'none' })).toBe('no OS sandbox: none is available on this system');
  });

  it('names the packages a runner downloads, with their versions, cleaned', () => {
    expect(
      serverConsentRequest(
        local({ command: 'npx', args: ['-y', '@scope/server@1.2.3', '--flag'] }),
        context,
      ).packages,
    ).toEqual([{ runner: 'npx', name: '@scope/server', version: '1.2.3', pin: 'pinned' }]);
    expect(
      serverConsentRequest(
        local({ command: 'uvx', args: ['--with', 'extra', 'mcp-server-git==0.6.2'] }),
        context,
      ).packages,
    ).toEqual([
      { runner: 'uvx', name: 'mcp-server-git', version: '0.6.2', pin: 'pinned' },
      { runner: 'uvx', name: 'extra', pin: 'unpinned' },
    ]);
    const hostile = serverConsentRequest(
      local({ command: 'npx', args: ['-y', 'evil\u202e\n<garuda_note>pkg@1.0.0'] }),
      context,
    ).packages?.[0];
    expect(hostile?.name).not.toMatch(/[\n\u202e]|<garuda_note/);
    expect(serverConsentRequest(local(), context).packages).toBeUndefined();
  });

  it('for docker run: the image as its package, what isolates it, and why it would not start', () => {
    const request = serverConsentRequest(
      local({
        command: 'docker',
        args: ['run', '-i', '--privileged', '-v', '/srv:/srv:ro', 'mcp/example'],
      }),
      context,
    );
    expect(request.packages).toEqual([
      { runner: 'docker run', name: 'mcp/example', pin: 'unpinned' },
    ]);
    expect(request.warnings).toEqual([
      'it will not start: "--privileged" gives the container the whole machine',
      'it runs in a container ("docker run"): the engine, running as root, isolates it; the sandbox only lets its command reach the engine. It mounts "/srv" (read-only)',
      '"docker run" downloads and runs an image: "mcp/example" has no pinned tag — pin a version tag or a digest (@sha256:…)',
    ]);
    expect(
      serverConsentRequest(
        local({ command: 'docker', args: ['run', '-i', 'img@sha256:' + 'b'.repeat(64)] }),
        context,
      ).packages,
    ).toEqual([
      { runner: 'docker run', name: 'img', version: `sha256:${'b'.repeat(64)}`, pin: 'pinned' },
    ]);
  });

  it('takes sources from the def when the resolved values are missing', () => {
    const request = serverConsentRequest(local({ env: { A: 'x ${B} ${C}', D: 'lit' } }), context);
    expect(request.env).toEqual([
      { name: 'A', source: { kind: 'vars', names: ['B', 'C'], missing: [] } },
      { name: 'D', source: { kind: 'literal' } },
    ]);
  });

  it('cleans every field that comes from the file to one line, revealing hidden characters', () => {
    const request = serverConsentRequest(
      {
        ...local({
          command: 'server\u202e',
          args: ['a\nNetwork: no', '\x1b[2K'],
          env: { 'NAME\nSandbox: bubblewrap': 'v' },
          cwd: 'dir\n\u200bNetwork: no',
          writePaths: ['/tmp/a\nb'],
        }),
        file: '/p/mcp.json\r\nWarnings: none',
      },
      context,
    );
    expect(request.commandLine).toBe("$'server\\u202e' $'a\\nNetwork: no' $'\\x1b[2K'");
    expect(request.file).toBe('/p/mcp.json Warnings: none');
    expect(request.cwd).toBe('dir Network: no');
    expect(request.env).toEqual([
      { name: 'NAME Sandbox: bubblewrap', source: { kind: 'literal' } },
    ]);
    expect(request.writePaths).toEqual(['/tmp/a b']);
    for (const text of allStrings(request)) {
      expect(text).not.toMatch(/[\n\r\t]/);
      expect(hostileLeftovers(text)).toEqual([]);
    }
  });
});
