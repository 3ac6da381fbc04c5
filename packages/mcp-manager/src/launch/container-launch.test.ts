import { describe, expect, it } from 'vitest';
import { containerLaunch, type ContainerPolicy } from './container-launch.js';

const policy: ContainerPolicy = {
  network: false,
  root: '/home/ada/project',
  writable: ['/home/ada/project', '/home/ada/notes'],
  userHome: '/home/ada',
  garudaHome: '/home/ada/.garuda',
};
const online = { ...policy, network: true };

describe('containerLaunch', () => {
  it('is undefined for other commands and other docker verbs', () => {
    expect(containerLaunch(['node', 'x.js'], policy)).toBeUndefined();
    expect(containerLaunch(['docker', 'ps'], policy)).toBeUndefined();
    expect(containerLaunch(['docker', 'exec', '-i', 'c', 'sh'], policy)).toBeUndefined();
    expect(containerLaunch([], policy)).toBeUndefined();
  });

  it('adds --network=none after run for a server without network, nothing with network', () => {
    const argv = ['docker', 'run', '-i', '--rm', 'mcp/time:1.0.0'];
    expect(containerLaunch(argv, policy)).toEqual({
      engine: 'docker',
      image: 'mcp/time:1.0.0',
      pin: 'pinned',
      argv: ['docker', 'run', '--network=none', '-i', '--rm', 'mcp/time:1.0.0'],
      problems: [],
      mounts: [],
    });
    expect(containerLaunch(argv, online)?.argv).toEqual(argv);
    expect(
      containerLaunch(['docker', '--context', 'x', 'container', 'run', '-i', 'img:1'], policy)
        ?.argv,
    ).toEqual(['docker', '--context', 'x', 'container', 'run', '--network=none', '-i', 'img:1']);
    expect(containerLaunch(['/usr/bin/podman', 'run', '-i', 'img:1'], policy)?.engine).toBe(
      'podman',
    );
  });

  it('finds the image after options that take values, in every spelling', () => {
    const launch = containerLaunch(
      [
        'docker',
        'run',
        '-i',
        '-e',
        'A=1',
        '--name=x',
        '-v',
        'data:/data',
        '-ie',
        'B',
        'img@sha256:' + 'a'.repeat(64),
        'serve',
        '--flag',
      ],
      policy,
    );
    expect(launch?.image).toBe(`img@sha256:${'a'.repeat(64)}`);
    expect(launch?.pin).toBe('pinned');
    expect(launch?.problems).toEqual([]);
  });

  it.each([
    ['img', 'unpinned'],
    ['img:latest', 'unpinned'],
    ['registry:5000/img', 'unpinned'],
    ['registry:5000/img:2.1', 'pinned'],
  ] as const)('%s is %s', (image, pin) => {
    expect(containerLaunch(['docker', 'run', '-i', image], policy)?.pin).toBe(pin);
  });

  it.each([
    [['docker', 'run', '--rm', 'img:1'], '"-i" is missing'],
    [['docker', 'run', '-it', 'img:1'], '"-t" gives it a terminal'],
    [['docker', 'run', '-i', '-d', 'img:1'], '"-d" would run it in the background'],
    [['docker', 'run', '-i', '--privileged', 'img:1'], '"--privileged"'],
    [['docker', 'run', '-i', '--cap-add', 'SYS_ADMIN', 'img:1'], '"--cap-add SYS_ADMIN"'],
    [['docker', 'run', '-i', '--device=/dev/sda', 'img:1'], '"--device /dev/sda"'],
    [
      ['docker', 'run', '-i', '--security-opt', 'seccomp=unconfined', 'img:1'],
      'turns a protection off',
    ],
    [['docker', 'run', '-i', '--pid=host', 'img:1'], '"--pid host"'],
    [['docker', 'run', '-i', '--userns', 'host', 'img:1'], '"--userns host"'],
    [['docker', 'run', '-i', '--volumes-from', 'other', 'img:1'], '"--volumes-from other"'],
    [
      ['docker', 'run', '-i', '--network', 'host', 'img:1'],
      '"--network host" gives it network access',
    ],
    [['docker', 'run', '-i', '--net=bridge', 'img:1'], '"--network bridge"'],
    [['docker', 'run', '-i', '-v', '/var/run/docker.sock:/s', 'img:1'], 'engine socket'],
    [['docker', 'run', '-i', '-v', '/var/run:/r:ro', 'img:1'], 'engine socket'],
    [['docker', 'run', '-i', '-v', '/:/host:ro', 'img:1'], 'engine socket'],
    [['docker', 'run', '-i', '-v', '~/.garuda:/g:ro', 'img:1'], "Garuda's home"],
    [['docker', 'run', '-i', '-v', '/home/ada:/h:ro', 'img:1'], "Garuda's home"],
    [
      ['docker', 'run', '-i', '-v', '~/.ssh:/ssh:ro', 'img:1'],
      '"/home/ada/.ssh", which the sandbox hides',
    ],
    [
      ['docker', 'run', '-i', '--mount', 'type=bind,src=/home/ada/.aws,dst=/a,readonly', 'img:1'],
      'which the sandbox hides',
    ],
    [['docker', 'run', '-i', '-v', '/srv/data:/data', 'img:1'], 'writable, outside the project'],
    [
      ['docker', 'run', '-i', '--mount', 'type=bind,source=/srv,target=/s', 'img:1'],
      'writable, outside the project',
    ],
    [['docker', 'run', '-i'], 'no image is named'],
  ])('%j is refused: %s', (argv, problem) => {
    const problems = containerLaunch(argv, policy)?.problems ?? [];
    expect(
      problems.some((text) => text.includes(problem)),
      problems.join('\n'),
    ).toBe(true);
  });

  it('lets through what the sandbox would allow', () => {
    for (const argv of [
      ['docker', 'run', '-i', '--rm', '-v', '.:/work', 'img:1'],
      ['docker', 'run', '-i', '-v', '/home/ada/notes:/notes', 'img:1'],
      ['docker', 'run', '-i', '-v', '/srv/data:/data:ro', 'img:1'],
      ['docker', 'run', '-i', '--mount', 'type=volume,source=cache,target=/c', 'img:1'],
      ['docker', 'run', '-i', '--network', 'none', 'img:1'],
      ['docker', 'run', '-i', '--cap-drop', 'ALL', '--read-only', 'img:1'],
    ]) {
      expect(containerLaunch(argv, policy)?.problems, argv.join(' ')).toEqual([]);
    }
    expect(
      containerLaunch(['docker', 'run', '-i', '--network', 'host', 'img:1'], online)?.problems,
    ).toEqual([]);
    expect(
      containerLaunch(['docker', 'run', '-i', '-v', '/srv:/s:ro', 'img:1'], policy)?.mounts,
    ).toEqual([{ path: '/srv', readOnly: true }]);
  });
});
