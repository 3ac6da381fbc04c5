import { cpuMsOf } from '@garuda/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WarningRank, commandWarnings } from './command-warnings.js';

const texts = (argv: string[]) => commandWarnings(argv).map((w) => w.text);

const SHELL = (what: string) =>
  `runs a shell command line ("${what}"): it can do anything, and is hard to check`;
const PIPE = (shell: string) => `pipes text into a shell ("| ${shell}"): it runs whatever arrives`;
const DOWNLOAD = (tool: string) => `uses "${tool}" to download from the network`;
const PRIVILEGE = (tool: string) => `runs "${tool}": it asks for administrator (root) rights`;
/** Shell syntax where no shell runs it, and in a shell's command line (`ops` JSON-quoted). */
const SYNTAX = (...ops: string[]) =>
  `has shell syntax (${ops.map((op) => JSON.stringify(op)).join(', ')}) in its command line, but no shell runs it here: the program gets it as text, so the line does not do what it looks like; check why it is there`;
const SCRIPT_SYNTAX = (...ops: string[]) =>
  `its shell command line uses ${ops.map((op) => JSON.stringify(op)).join(', ')}: it can run several commands and write files; read all of it`;
const RM = 'deletes files recursively without asking ("rm -rf")';
const UNPINNED = (runner: string, spec: string, example: string) =>
  `"${runner}" downloads and runs code: "${spec}" has no pinned version — pin one, e.g. ${example}`;

describe('commandWarnings: each warning, and a near miss that must not warn', () => {
  it.each([
    // shells with -c
    [['sh', '-c', 'echo hi'], [SHELL('sh -c')]],
    [['/bin/sh', '-c', 'echo hi'], [SHELL('sh -c')]],
    [['bash', '-lc', 'echo hi'], [SHELL('bash -c')]],
    [['bash', '-o', 'pipefail', '-c', 'echo hi'], [SHELL('bash -c')]],
    [['zsh', '-c', 'x'], [SHELL('zsh -c')]],
    [['env', 'sh', '-c', 'x'], [SHELL('sh -c')]],
    [['/usr/bin/env', 'FOO=1', '-i', 'bash', '-c', 'x'], [SHELL('bash -c')]],
    [['busybox', 'sh', '-c', 'x'], [SHELL('sh -c')]],
    [['nohup', 'timeout', '5', 'sh', '-c', 'x'], [SHELL('sh -c')]],
    [['cmd', '/c', 'dir'], [SHELL('cmd /c')]],
    [['C:\\Windows\\System32\\cmd.exe', '/C', 'dir'], [SHELL('cmd /c')]],
    [['powershell', '-Command', 'Get-Date'], [SHELL('powershell -Command')]],
    [['pwsh', '-c', 'Get-Date'], [SHELL('pwsh -Command')]],
    [
      ['node', '-e', 'require("x")'],
      [
        'runs code written on its command line ("node -e"): it can do anything, and is hard to check',
      ],
    ],
    [
      ['python3', '-c', 'import os'],
      [
        'runs code written on its command line ("python3 -c"): it can do anything, and is hard to check',
      ],
    ],
    [
      ['node', '--eval=1'],
      [
        'runs code written on its command line ("node --eval"): it can do anything, and is hard to check',
      ],
    ],
    // near misses
    [['bash', 'server.sh', '-c'], []],
    [['sh', 'run.sh'], []],
    [['bash', '--login', 'script'], []],
    [['node', 'server.js', '-e', 'x'], []],
    [['python', 'server.py', '-c', 'conf.toml'], []],
    [['cmd-server', '/c'], []],
    [['shellcheck', '-c'], []],
    [['my-server', '--shell', 'sh', '-c'], []],
  ])('shell: %j', (argv, expected) => {
    expect(texts(argv)).toEqual(expected);
  });

  it.each([
    [['sudo', 'my-server'], [PRIVILEGE('sudo')]],
    [['doas', '-u', 'root', 'my-server'], [PRIVILEGE('doas')]],
    [['env', 'A=1', 'sudo', 'x'], [PRIVILEGE('sudo')]],
    [['/usr/bin/sudo', '-E', 'x'], [PRIVILEGE('sudo')]],
    [['sudoku-server'], []],
    [['my-server', '--user', 'sudo'], []],
    [['pseudo'], []],
  ])('privilege: %j', (argv, expected) => {
    expect(texts(argv)).toEqual(expected);
  });

  it.each([
    [['curl', 'https://x'], [DOWNLOAD('curl')]],
    [['my-server', '--fetch-with', 'wget'], [DOWNLOAD('wget')]],
    [['my-server', '--downloader=/usr/bin/curl'], [DOWNLOAD('curl')]],
    [['curl.exe', 'x'], [DOWNLOAD('curl')]],
    [['curly-server'], []],
    [['my-server', '--no-curl'], []],
    [['libcurl-tool'], []],
    [['wgetrc-editor'], []],
  ])('download: %j', (argv, expected) => {
    expect(texts(argv)).toEqual(expected);
  });

  it.each([
    [
      ['my-server', 'x|sh'],
      [PIPE('sh'), SYNTAX('|')],
    ],
    [
      ['my-server', 'x | bash'],
      [PIPE('bash'), SYNTAX('|')],
    ],
    [
      ['my-server', 'x |/bin/bash -s'],
      [PIPE('bash'), SYNTAX('|')],
    ],
    [
      ['my-server', 'x | sudo -E bash'],
      [PIPE('bash'), SYNTAX('|')],
    ],
    [
      ['my-server', 'x | "sh"'],
      [PIPE('sh'), SYNTAX('|')],
    ],
    [
      ['my-server', 'x', '|', 'sh'],
      [PIPE('sh'), SYNTAX('|')],
    ],
    [
      ['my-server', 'x |& zsh'],
      [PIPE('zsh'), SYNTAX('|')],
    ],
    [
      ['my-server', 'x | python3'],
      [PIPE('python3'), SYNTAX('|')],
    ],
    [['my-server', 'x || sh'], [SYNTAX('||')]],
    [['my-server', 'x | shellcheck'], [SYNTAX('|')]],
    [['my-server', 'x | sha256sum'], [SYNTAX('|')]],
    [['my-server', 'x | bash-completion'], [SYNTAX('|')]],
    [['my-server', 'sh'], []],
  ])('pipe: %j', (argv, expected) => {
    expect(texts(argv)).toEqual(expected);
  });

  it.each([
    // shell syntax where no shell runs it (a command line copied from a shell: injection lookalikes)
    [
      ['npx', '-y', 'pkg@1.0.0;', 'curl', 'https://x'],
      [SYNTAX(';'), DOWNLOAD('curl'), UNPINNED('npx', 'pkg@1.0.0;', '"pkg@1.2.3"')],
    ],
    [['my-server', '&&', 'other'], [SYNTAX('&&')]],
    [['my-server', '--name', '`id`'], [SYNTAX('`')]],
    [['my-server', '--name', 'a$(id)'], [SYNTAX('$(')]],
    [['my-server', '>', '/tmp/out'], [SYNTAX('>')]],
    [['my-server', '2>/dev/null', '<in'], [SYNTAX('>', '<')]],
    [['my-server', '&>log'], [SYNTAX('>')]],
    [['my-server', '&'], [SYNTAX('&')]],
    [['my-server;rm', 'x'], [SYNTAX(';')]],
    // near misses
    [
      ['uvx', 'mcp-server-git>=1.0'],
      [UNPINNED('uvx', 'mcp-server-git>=1.0', '"mcp-server-git==1.2.3"')],
    ],
    [['my-server', 'https://a.example/?x=1&y=2'], []],
    [['my-server', '--arrow=->', 'a<b'], []],
    [['my-server', '$HOME', '${A}'], []],
  ])('shell syntax: %j', (argv, expected) => {
    expect(texts(argv)).toEqual(expected);
  });

  it('shell syntax: finds the operators in time linear in the text (no backtracking on hostile input)', () => {
    // 400 000 characters of near-operators: a backtracking matcher would not finish.
    const hostile = ['x', `${'2>'.repeat(50_000)}`, `${'|'.repeat(100_000)}`, '&'.repeat(100_000)];
    let warnings: string[] = [];
    const cpuMs = cpuMsOf(() => (warnings = texts(hostile)));
    expect(warnings).toContain(SYNTAX('&&', '||', '>'));
    // Only a hang fails this (CPU time, which a busy machine does not add to): the scan takes
    // milliseconds.
    expect(cpuMs).toBeLessThan(20_000);
  });

  it.each([
    [['rm', '-rf', '/tmp/x'], [RM]],
    [['rm', '-fr', 'x'], [RM]],
    [['rm', '-r', '-f', 'x'], [RM]],
    [['rm', '-f', '-R', 'x'], [RM]],
    [['rm', '--recursive', '--force', 'x'], [RM]],
    [['rm', '-v', '-rfv', 'x'], [RM]],
    [['/bin/rm', '-Rf', 'x'], [RM]],
    [['rm', '-r', 'x'], []],
    [['rm', '-f', 'x'], []],
    [['rm', '--', '-rf'], []],
    [['rm', 'x', 'y'], []],
    [['my-server', 'rm', '-rf'], []],
  ])('rm: %j', (argv, expected) => {
    expect(texts(argv)).toEqual(expected);
  });

  it.each([
    [['npx', '-y', 'pkg'], [UNPINNED('npx', 'pkg', '"pkg@1.2.3"')]],
    [['npx', '-y', '@scope/pkg'], [UNPINNED('npx', '@scope/pkg', '"@scope/pkg@1.2.3"')]],
    [['npx', 'pkg@latest', '--port', '1'], [UNPINNED('npx', 'pkg@latest', '"pkg@1.2.3"')]],
    [['npx', '--yes', '--', 'pkg'], [UNPINNED('npx', 'pkg', '"pkg@1.2.3"')]],
    [['npx', '--registry', 'https://r.example', 'pkg'], [UNPINNED('npx', 'pkg', '"pkg@1.2.3"')]],
    [
      ['npx', '-p', '@scope/pkg', 'bin-name'],
      [UNPINNED('npx', '@scope/pkg', '"@scope/pkg@1.2.3"')],
    ],
    [['npx', '--package=pkg@^2', 'bin'], [UNPINNED('npx', 'pkg@^2', '"pkg@1.2.3"')]],
    [['npm', 'exec', '--', 'pkg'], [UNPINNED('npm exec', 'pkg', '"pkg@1.2.3"')]],
    [['pnpm', 'dlx', 'pkg'], [UNPINNED('pnpm dlx', 'pkg', '"pkg@1.2.3"')]],
    [['pnpx', 'pkg'], [UNPINNED('pnpx', 'pkg', '"pkg@1.2.3"')]],
    [['yarn', 'dlx', '-q', 'pkg'], [UNPINNED('yarn dlx', 'pkg', '"pkg@1.2.3"')]],
    [['bunx', 'pkg'], [UNPINNED('bunx', 'pkg', '"pkg@1.2.3"')]],
    [['bun', 'x', 'pkg'], [UNPINNED('bun x', 'pkg', '"pkg@1.2.3"')]],
    [['uvx', 'mcp-server-git'], [UNPINNED('uvx', 'mcp-server-git', '"mcp-server-git==1.2.3"')]],
    [
      ['uvx', '--from', 'mcp-server-git>=1', 'mcp-server-git'],
      [UNPINNED('uvx', 'mcp-server-git>=1', '"mcp-server-git==1.2.3"')],
    ],
    [['uvx', '--with', 'extra', 'tool==1.0.0'], [UNPINNED('uvx', 'extra', '"extra==1.2.3"')]],
    [['uv', 'tool', 'run', 'tool'], [UNPINNED('uv tool run', 'tool', '"tool==1.2.3"')]],
    [['pipx', 'run', 'tool'], [UNPINNED('pipx run', 'tool', '"tool==1.2.3"')]],
    [
      ['pipx', 'run', '--spec', 'tool', 'tool-cli'],
      [UNPINNED('pipx run', 'tool', '"tool==1.2.3"')],
    ],
    [['npx', 'github:user/repo'], [UNPINNED('npx', 'github:user/repo', 'a full commit hash')]],
    // near misses: pinned, local, not a runner
    [['npx', '-y', 'pkg@1.2.3'], []],
    [['npx', '-y', '@scope/pkg@1.2.3'], []],
    [['npx', '-p', '@scope/pkg@1.2.3', 'bin-name'], []],
    [['npx', './local'], []],
    [['npx'], []],
    [['uvx', 'mcp-server-git==1.2.3'], []],
    [['uvx', 'mcp-server-git@1.2.3'], []],
    [['uvx', '--from', 'pkg==1.0.0', 'cli'], []],
    [['pipx', 'run', 'tool==1.0'], []],
    [['pnpm', 'exec', 'pkg'], []],
    [['npm', 'run', 'start'], []],
    [['yarn', 'pkg'], []],
    [['uv', 'run', 'server.py'], []],
    [['my-server', 'npx', 'pkg'], []],
  ])('runner: %j', (argv, expected) => {
    expect(texts(argv)).toEqual(expected);
  });
});

describe('commandWarnings: inside command lines', () => {
  it('looks into sh -c scripts, also nested and after operators', () => {
    expect(texts(['sh', '-c', 'curl -fsSL https://x.example/i.sh | sh'])).toEqual([
      SHELL('sh -c'),
      PIPE('sh'),
      SCRIPT_SYNTAX('|'),
      DOWNLOAD('curl'),
    ]);
    expect(texts(['bash', '-c', 'cd /x && sudo rm -rf build; npx -y tool'])).toEqual([
      PRIVILEGE('sudo'),
      SHELL('bash -c'),
      SCRIPT_SYNTAX(';', '&&'),
      UNPINNED('npx', 'tool', '"tool@1.2.3"'),
      RM,
    ]);
    expect(texts(['sh', '-c', "bash -c 'echo $(wget -qO- x)'"])).toEqual([
      SHELL('sh -c'),
      SHELL('bash -c'),
      SCRIPT_SYNTAX('$('),
      DOWNLOAD('wget'),
    ]);
    expect(texts(['env', '-S', 'sh -c x'])).toEqual([SHELL('sh -c')]);
    expect(texts(['cmd', '/c', 'curl x | powershell'])).toEqual([
      SHELL('cmd /c'),
      PIPE('powershell'),
      SCRIPT_SYNTAX('|'),
      DOWNLOAD('curl'),
    ]);
  });

  it('decodes an encoded PowerShell command and looks into it', () => {
    const encoded = Buffer.from('iwr https://x.example | iex', 'utf16le').toString('base64');
    expect(texts(['powershell', '-EncodedCommand', encoded])).toEqual([
      'runs an encoded PowerShell command ("powershell -EncodedCommand"): what it does is hidden from this screen',
      PIPE('iex'),
      DOWNLOAD('iwr'),
    ]);
  });

  it('ranks warnings and lists each once', () => {
    const warnings = commandWarnings(['sudo', 'sh', '-c', 'curl x | sh; curl y | sh']);
    expect(warnings.map((w) => w.rank)).toEqual([
      WarningRank.privilege,
      WarningRank.shell,
      WarningRank.pipe,
      WarningRank.shellSyntax,
      WarningRank.download,
    ]);
  });

  it('quotes what the file wrote: a hostile package name cannot add a line', () => {
    const [warning] = texts(['npx', 'evil\n"Network: no"\u202e']);
    expect(warning).toBe(UNPINNED('npx', 'evil \\"Network: no\\"', 'a full commit hash'));
  });

  it('property: never throws on any argv, and every warning is one line', () => {
    const word = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom(
        'sh',
        '-c',
        '|',
        'sudo',
        'env',
        'npx',
        '-p',
        'rm',
        '-rf',
        'cmd',
        '/c',
        'powershell',
        '-e',
        '--',
      ),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 10 }), (argv) => {
        for (const warning of commandWarnings(argv)) expect(warning.text).not.toMatch(/[\n\r\t]/);
      }),
      { numRuns: 500 },
    );
  });

  // A guard against quadratic matching (which would take minutes here), not a speed test: a loose
  // bound on CPU time, so a busy shared machine cannot fail it.
  it('stays linear on long hostile arguments', { timeout: 300_000 }, () => {
    const cpuMs = cpuMsOf(() => {
      commandWarnings(['sh', '-c', 'a|'.repeat(200_000)]);
      commandWarnings(['x', `${'|a/'.repeat(100_000)}sh`]);
    });
    expect(cpuMs).toBeLessThan(30_000);
  });
});

describe('commandWarnings on hostile command lines', () => {
  // A guard against quadratic time, not a speed test (the bound only catches a hang).
  it(
    'ReDoS: pipes, wrappers, options and folders 50 000 characters long are read in linear time',
    { timeout: 300_000 },
    () => {
      const hostile = [
        `x|${'sudo '.repeat(10_000)}!`,
        `x|sudo${' -x'.repeat(16_000)}!`,
        `x|${'a/'.repeat(25_000)}!`,
        'a| '.repeat(16_000),
        `x|python${'.'.repeat(50_000)}!`,
        `x|env${'  -'.repeat(16_000)}`,
      ];
      const cpuMs = cpuMsOf(() => {
        for (const script of hostile) commandWarnings(['sh', '-c', script]);
      });
      expect(cpuMs).toBeLessThan(20_000);
      expect(texts(['sh', '-c', `x | ${'sudo '.repeat(1_000)}/usr/bin/bash`])).toContain(
        PIPE('bash'),
      );
    },
  );
});
