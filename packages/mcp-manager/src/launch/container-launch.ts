import path from 'node:path';
import { HIDDEN_HOME_PATHS } from '@garuda/mcp-transport';
import { programName, words } from './package-runners.js';
import { isWithin, type SandboxFolders } from './paths.js';

/** A server started as `docker run -i …` (or `podman run -i …`). @internal */
export interface ContainerLaunch {
  readonly engine: 'docker' | 'podman';
  /** The image as written (`undefined` when none was found). */
  readonly image?: string;
  /** `pinned`: a digest or a tag other than `latest`; `unpinned`: no tag, or `latest`. */
  readonly pin: 'pinned' | 'unpinned';
  /** The command line to run: `--network=none` added after `run` for a server without network. */
  readonly argv: readonly string[];
  /**
   * Why it must not start, each a sentence: what the container would get that the sandbox's
   * policy does not give (the engine, not the sandbox, would carry it out).
   */
  readonly problems: readonly string[];
  /** Host folders or files bound into the container, as the engine will see them. */
  readonly mounts: readonly { readonly path: string; readonly readOnly: boolean }[];
}

/**
 * What a container launch is checked against (relative bind sources are taken from the root).
 * @internal
 */
export interface ContainerPolicy extends SandboxFolders {
  readonly network: boolean;
  /** Folders the server may write (the root is one). */
  readonly writable: readonly string[];
}

/** The engines' sockets: whoever reaches one runs anything as root on this machine. */
export const ENGINE_SOCKETS: Readonly<Record<'docker' | 'podman', readonly string[]>> = {
  docker: ['/var/run/docker.sock', '/run/docker.sock'],
  podman: ['/run/podman/podman.sock', '/var/run/podman/podman.sock'],
};

const GLOBAL_VALUES = words(
  '--config -c --context -H --host -l --log-level --tlscacert --tlscert --tlskey ' +
    '--connection --url --identity --root --runroot --storage-driver --cgroup-manager --events-backend',
);

/** `docker run` and `podman run` options that take a value (both CLIs' lists together). */
const RUN_VALUES = words(
  '-a --attach --add-host --annotation --blkio-weight --blkio-weight-device --cap-add --cap-drop ' +
    '--cgroup-parent --cgroupns --cidfile --cpu-period --cpu-quota --cpu-rt-period ' +
    '--cpu-rt-runtime -c --cpu-shares --cpus --cpuset-cpus --cpuset-mems --device ' +
    '--device-cgroup-rule --device-read-bps --device-read-iops --device-write-bps ' +
    '--device-write-iops --dns --dns-option --dns-search --domainname --entrypoint -e --env ' +
    '--env-file --expose --gpus --group-add --health-cmd --health-interval --health-retries ' +
    '--health-start-interval --health-start-period --health-timeout -h --hostname --ip --ip6 ' +
    '--ipc --isolation --kernel-memory -l --label --label-file --link --link-local-ip ' +
    '--log-driver --log-opt --mac-address -m --memory --memory-reservation --memory-swap ' +
    '--memory-swappiness --mount --name --network --net --network-alias --net-alias ' +
    '--oom-score-adj --pid --pids-limit --platform -p --publish --pull --restart --runtime ' +
    '--security-opt --shm-size --stop-signal --stop-timeout --storage-opt --sysctl --tmpfs ' +
    '--ulimit -u --user --userns --uts -v --volume --volume-driver --volumes-from -w --workdir ' +
    '--arch --os --variant --pod --secret --uidmap --gidmap --subuidname --subgidname --hooks-dir ' +
    '--init-path --sdnotify --seccomp-policy --timeout --umask --requires --chrootdirs ' +
    '--personality --preserve-fds --passwd-entry --group-entry --image-volume --decryption-key ' +
    '--env-merge --cgroup-conf --cgroups --log-opt --unsetenv --label-file',
);

/** The host namespaces a container must not share (each undoes part of its isolation). */
const HOST_NAMESPACES = words('--pid --ipc --uts --userns --cgroupns');

interface RunOption {
  readonly name: string;
  readonly value?: string;
}

/** The options of `run` before the image, and the image's index. */
function runOptions(args: readonly string[]): { options: RunOption[]; image: number } {
  const options: RunOption[] = [];
  let i = 0;
  while (i < args.length) {
    const word = args[i] as string;
    if (word === '--') return { options, image: i + 1 };
    if (!word.startsWith('-') || word === '-') break;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      if (eq > 0) {
        options.push({ name: word.slice(0, eq), value: word.slice(eq + 1) });
        i++;
      } else if (RUN_VALUES.has(word)) {
        options.push({ name: word, ...optional(args[i + 1]) });
        i += 2;
      } else {
        options.push({ name: word });
        i++;
      }
      continue;
    }
    // A cluster of short options (`-it`, `-ie NAME=x`): the first that takes a value takes the
    // rest of the word, or the next word.
    let taken = false;
    for (let at = 1; at < word.length; at++) {
      const name = `-${word[at] as string}`;
      if (RUN_VALUES.has(name)) {
        const rest = word.slice(at + 1);
        options.push({ name, ...optional(rest === '' ? args[i + 1] : rest) });
        taken = rest === '';
        break;
      }
      options.push({ name });
    }
    i += taken ? 2 : 1;
  }
  return { options, image: i };
}

function optional(value: string | undefined): { value?: string } {
  return value === undefined ? {} : { value };
}

function isOn(option: RunOption): boolean {
  return option.value === undefined || option.value === 'true';
}

/** `-v src:dst[:opts]`, `--mount type=bind,source=…` → the host path, when it is one. */
function bindOf(option: RunOption): { source: string; readOnly: boolean } | undefined {
  const value = option.value ?? '';
  if (option.name === '-v' || option.name === '--volume') {
    const parts = value.split(':');
    const source = parts[0] ?? '';
    // A name without a slash is a named volume, kept by the engine.
    if (!/^[/~.]/.test(source)) return undefined;
    const flags = parts.length > 2 ? (parts.at(-1) ?? '').split(',') : [];
    return { source, readOnly: flags.includes('ro') || flags.includes('readonly') };
  }
  if (option.name === '--mount') {
    const fields = new Map(
      value.split(',').map((field) => {
        const eq = field.indexOf('=');
        return eq < 0 ? [field.trim(), 'true'] : [field.slice(0, eq).trim(), field.slice(eq + 1)];
      }),
    );
    if ((fields.get('type') ?? 'volume') !== 'bind') return undefined;
    const source = fields.get('source') ?? fields.get('src');
    if (source === undefined) return undefined;
    const ro = fields.get('readonly') ?? fields.get('ro');
    return { source, readOnly: ro !== undefined && ro !== 'false' && ro !== '0' };
  }
  return undefined;
}

function resolveSource(source: string, policy: ContainerPolicy): string {
  if (source === '~') return policy.userHome;
  if (source.startsWith('~/')) return path.join(policy.userHome, source.slice(2));
  return path.resolve(policy.root, source);
}

/** Why a host path must not be bound into a container, if it must not. */
function mountProblem(file: string, policy: ContainerPolicy): string | undefined {
  const sockets = [...ENGINE_SOCKETS.docker, ...ENGINE_SOCKETS.podman];
  if (sockets.some((socket) => isWithin(socket, file))) {
    return 'it would give the container the engine socket, which is root on this machine';
  }
  if (isWithin(file, policy.garudaHome) || isWithin(policy.garudaHome, file)) {
    return "it holds Garuda's home (sign-in tokens and trust), which servers never see";
  }
  const hidden = HIDDEN_HOME_PATHS.map((rel) => path.join(policy.userHome, rel));
  const found = hidden.find((entry) => isWithin(file, entry) || isWithin(entry, file));
  if (found !== undefined) {
    return `it holds ${JSON.stringify(found)}, which the sandbox hides from servers`;
  }
  return undefined;
}

function imagePin(image: string | undefined): 'pinned' | 'unpinned' {
  if (image === undefined) return 'unpinned';
  if (/@sha256:[0-9a-f]{64}$/i.test(image)) return 'pinned';
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  if (colon <= slash) return 'unpinned';
  return image.slice(colon + 1) === 'latest' ? 'unpinned' : 'pinned';
}

/**
 * Whether a server's command is `docker run` or `podman run`, and how it fits the policy the
 * sandbox would enforce. The container engine, not the sandbox, isolates such a server, and it
 * carries out the options as root: so each option that would give the container more than the
 * sandbox gives a server is a problem (the server does not start), and a server without network
 * gets `--network=none`. Problems: no `-i` (the server would never get a message), `-t` (a
 * terminal garbles the protocol), `-d`; `--privileged`, `--cap-add`, `--device`, a
 * `--security-opt` with `unconfined`, the host's pid, ipc, uts, user or cgroup namespace,
 * `--volumes-from`; a network other than `none` for a server without network; a bind mount of
 * the engine's socket, of Garuda's home or a hidden credential path (or a folder that holds
 * one), or a writable one outside the project and the write paths. Named volumes are the
 * engine's own and pass. @internal
 *
 * @param argv - The server's command and arguments.
 * @param policy - The server's network, folders and the homes.
 * @returns The launch, or `undefined` for any other command.
 */
export function containerLaunch(
  argv: readonly string[],
  policy: ContainerPolicy,
): ContainerLaunch | undefined {
  const [command, ...rest] = argv;
  if (command === undefined) return undefined;
  const engine = programName(command);
  if (engine !== 'docker' && engine !== 'podman') return undefined;
  let at = 0;
  while (at < rest.length && (rest[at] as string).startsWith('-')) {
    at += GLOBAL_VALUES.has(rest[at] as string) ? 2 : 1;
  }
  const verb = rest[at];
  const runAt = verb === 'run' ? at : verb === 'container' && rest[at + 1] === 'run' ? at + 1 : -1;
  if (runAt < 0) return undefined;
  const args = rest.slice(runAt + 1);
  const { options, image: imageAt } = runOptions(args);
  const image = args[imageAt];
  const problems: string[] = [];
  const mounts: { path: string; readOnly: boolean }[] = [];
  const has = (...names: string[]) => options.some((o) => names.includes(o.name) && isOn(o));

  if (image === undefined) problems.push('no image is named after the options of "run"');
  if (!has('-i', '--interactive')) {
    problems.push('"-i" is missing: without it the server never gets the client\'s messages');
  }
  if (has('-t', '--tty')) problems.push('"-t" gives it a terminal, which garbles the protocol');
  if (has('-d', '--detach')) problems.push('"-d" would run it in the background, detached');
  if (has('--privileged')) problems.push('"--privileged" gives the container the whole machine');
  let network: string | undefined;
  for (const option of options) {
    const value = option.value ?? '';
    if (option.name === '--cap-add') problems.push(`"--cap-add ${value}" adds root powers`);
    if (option.name === '--device') problems.push(`"--device ${value}" gives it a device`);
    if (option.name === '--security-opt' && /unconfined/i.test(value)) {
      problems.push(`"--security-opt ${value}" turns a protection off`);
    }
    if (HOST_NAMESPACES.has(option.name) && value === 'host') {
      problems.push(`"${option.name} host" shares this machine's namespace with it`);
    }
    if (option.name === '--volumes-from') {
      problems.push(`"--volumes-from ${value}" mounts what another container has`);
    }
    if (option.name === '--network' || option.name === '--net') network = value;
    const bind = bindOf(option);
    if (bind !== undefined) {
      const file = resolveSource(bind.source, policy);
      mounts.push({ path: file, readOnly: bind.readOnly });
      const why = mountProblem(file, policy);
      if (why !== undefined) problems.push(`it mounts ${JSON.stringify(file)}: ${why}`);
      else if (!bind.readOnly && !policy.writable.some((dir) => isWithin(file, dir))) {
        problems.push(
          `it mounts ${JSON.stringify(file)} writable, outside the project and its write paths: add ":ro", or give the folder as a write path`,
        );
      }
    }
  }
  let out = [...argv];
  if (!policy.network) {
    if (network === undefined) {
      // After `run`, before the image: the option applies to this container only.
      const index = runAt + 2;
      out = [...argv.slice(0, index), '--network=none', ...argv.slice(index)];
    } else if (network !== 'none') {
      problems.push(
        `"--network ${network}" gives it network access, which this server does not have: set "network": true for it, or remove the option`,
      );
    }
  }
  return {
    engine,
    ...(image === undefined ? {} : { image }),
    pin: imagePin(image),
    argv: out,
    problems,
    mounts,
  };
}
