// garuda-mcp's usage, help and usage errors, run as the built command without a terminal.
import { describe, expect, it } from 'vitest';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

describe('usage', () => {
  it('--help lists every command, the options and the exit codes; exit 0', async () => {
    const result = await world.run(['--help']);
    expect(result.code).toBe(0);
    for (const command of [
      'status',
      'list',
      'get',
      'enable',
      'disable',
      'tools',
      'call',
      'add',
      'remove',
      'login',
      'logout',
      'trust',
      'audit',
      'doctor',
      'demo',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(result.stdout).toContain('--trust-project');
    expect(result.stdout).toContain('130 interrupted');
  });

  it('<command> --help shows that command', async () => {
    const result = await world.run(['call', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: garuda-mcp call <tool>/);
  });

  it.each([
    [['frob'], /Unknown command "frob"/],
    [['status', '--frob'], /Unknown option '--frob'/],
    [['status', '--url', 'https://x.test'], /--url is an option of add, not of status/],
    [['call'], /Missing arguments/],
    [['remove', 'a', 'b'], /Too many arguments/],
    [['trust', 'maybe'], /trust takes list or forget/],
    [['status', '--', 'x'], /Only add takes --/],
    [[], /Usage: garuda-mcp <command>/],
    [['demo', '--interactive'], /--interactive needs a terminal/],
    [['install', 'cursor', '--move', '--no-move'], /Give --move or --no-move, not both/],
    [['status', '--move'], /--move is an option of install, not of status/],
  ])('%j is a usage error: exit 2 and what to do', async (args, message) => {
    const result = await world.run(args);
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).toMatch(message);
  });
});

describe('help', () => {
  it('every option of a command is in that command’s --help', async () => {
    const { COMMAND_OPTIONS } = await import('../src/main.js');
    const byCommand = new Map<string, string[]>();
    for (const [option, commands] of Object.entries(COMMAND_OPTIONS)) {
      for (const command of commands)
        byCommand.set(command, [...(byCommand.get(command) ?? []), option]);
    }
    expect([...byCommand.keys()].sort()).toEqual(
      [
        'add',
        'audit',
        'demo',
        'disable',
        'enable',
        'import',
        'install',
        'login',
        'remove',
        'serve',
      ].sort(),
    );
    for (const [command, options] of byCommand) {
      const help = await world.run([command, '--help']);
      expect(help.code, command).toBe(0);
      const own = help.stdout.slice(help.stdout.indexOf(`Options of ${command}:`));
      expect(own, `${command} has an options section`).toMatch(/^Options of /);
      for (const option of options) {
        expect(own, `${command} --help names --${option}`).toMatch(
          new RegExp(`^  --${option}\\b`, 'm'),
        );
      }
    }
  });

  it('an unknown command suggests a close one, and only a close one', async () => {
    const typo = await world.run(['stauts']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Unknown command "stauts". Did you mean status?');
    const far = await world.run(['frobnicate']);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('Unknown command "frobnicate".');
    expect(far.stderr).not.toContain('Did you mean');
    const sub = await world.run(['trust', 'lsit']);
    expect(sub.stderr).toContain('Did you mean trust list?');
  });
});

describe('an unknown server name', () => {
  it.each([
    [['remove', 'fz']],
    [['remove', 'fz', '--project']],
    [['tools', 'fz']],
    [['call', 'fz/echo', '--yes']],
    [['login', 'fz']],
    [['logout', 'fz']],
    [['get', 'fz']],
    [['enable', 'fz']],
    [['disable', 'fz']],
    [['trust', 'forget', 'fz']],
  ])('%j exits 2 and suggests the close name', async (args) => {
    await world.userServers({ fx: fixtureEntry('normal') });
    const result = await world.run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/"fz"/);
    expect(result.stderr).toContain('Did you mean "fx"?');
    expect(result.stdout).toBe('');
  });

  it('a far name gets no suggestion', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    const result = await world.run(['get', 'database']);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('Did you mean');
  });
});
