import { chmodSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import type { SandboxInfo } from './detect-sandbox.js';
import { InvalidPolicyError, UnprotectablePathError } from './errors.js';
import { HIDDEN_HOME_PATHS, HIDDEN_MACOS_HOME_PATHS, hiddenPaths } from './hidden-paths.js';
import { resolvePolicy, type SandboxPolicy } from './sandbox-policy.js';
import { TempDirs, projectWithHome, put } from '../test/support/sandbox.js';
import {
  decide,
  parseSbpl,
  sbplParams,
  sbplRules,
  show,
  type SbplRule,
} from '../test/support/sbpl.js';
import { SBPL_MAX_LITERAL_BYTES, sbplString, seatbeltProfile } from './seatbelt-profile.js';

// The macOS profile, rendered on every OS (on Linux it cannot run: the os-sandbox-*.test.ts
// files run it on macOS). These tests read its text, and parse it to check every rule it must
// hold. The policy's paths are real folders here (buildSandbox checks they exist), with
// platform: 'darwin'.
const SEATBELT: SandboxInfo = { kind: 'seatbelt', command: '/usr/bin/sandbox-exec' };

const temp = new TempDirs();
afterAll(() => temp.cleanup());

function setup(name = 'project'): { root: string; home: string; policy: SandboxPolicy } {
  return projectWithHome(temp, { prefix: 'sbpl', rootName: name, platform: 'darwin' });
}

/** Reads back an SBPL string literal that starts at `text[start]` (a `"`). */
function unquote(text: string, start: number): string {
  let out = '';
  for (let i = start + 1; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\\') {
      out += text[i + 1];
      i += 1;
    } else if (ch === '"') {
      return out;
    } else {
      out += ch;
    }
  }
  throw new Error('unterminated string');
}

/** The profile and the rest of the sandbox-exec arguments. */
function profileOf(argv: string[], policy: SandboxPolicy): { profile: string; args: string[] } {
  const { command, args } = buildSandbox(argv, policy, SEATBELT);
  expect(command).toBe('/usr/bin/sandbox-exec');
  expect(args[0]).toBe('-p');
  return { profile: args[1] as string, args };
}

describe('the Seatbelt profile', () => {
  it('denies by default, then allows reads, and writes only to the root, write paths and temp folders', () => {
    const { root, policy } = setup();
    const extra = temp.make('extra');
    const file = put(path.join(temp.make('files'), 'out.log'), '');
    const scratch = temp.make('scratch');
    const { profile, args } = profileOf([process.execPath, 'server.js'], {
      ...policy,
      writePaths: [extra, file],
      tempDirs: [scratch],
    });
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    expect(profile).toContain('(allow process-exec)');
    expect(profile).toContain('(allow process-fork)');
    expect(profile).toMatch(/^\(allow file-read\*\)$/m);
    const writes = /\(allow file-write\*\n([^)]*\)\n?)+/.exec(profile)?.[0] ?? '';
    expect(writes).toContain(`(subpath "${root}")`);
    expect(writes).toContain(`(subpath "${extra}")`);
    expect(writes).toContain(`(literal "${file}")`);
    expect(writes).toContain('(subpath "/private/tmp")');
    expect(writes).toContain(`(subpath "${scratch}")`);
    expect(profile).not.toMatch(/\(allow file-write\*\)/); // no blanket write
    expect(args.slice(2)).toEqual(['--', process.execPath, 'server.js']);
  });

  it('allows network (IP and the DNS resolver socket) only with network: true', () => {
    const { policy } = setup();
    const off = profileOf([process.execPath], policy).profile;
    expect(off).not.toMatch(
      /network-outbound|network-inbound|network-bind|system-socket|mDNSResponder/,
    );
    const on = profileOf([process.execPath], { ...policy, network: true }).profile;
    expect(on).toContain('(allow network-outbound (remote ip))');
    expect(on).toContain('(allow network-inbound (local ip))');
    expect(on).toContain('(remote unix-socket (path-literal "/private/var/run/mDNSResponder"))');
    // No blanket rule that would open every Unix socket (ssh-agent, Docker…).
    expect(on).not.toMatch(/\(allow network\*\)|\(allow network-outbound\)/);
  });

  it("lets the server reach a container engine's socket (engineSocket) after the hidden rule, and nothing else", async () => {
    const { policy } = setup();
    const socket = path.join(temp.make('engine'), 'docker.sock');
    const server = net.createServer().listen(socket);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { profile } = profileOf([process.execPath], { ...policy, engineSocket: socket });
      const rule = `(allow network-outbound (remote unix-socket (path-literal "${socket}")))`;
      expect(profile).toContain(rule);
      expect(profile).toContain(`(allow file-read* (literal "${socket}"))`);
      expect(profile.indexOf(rule)).toBeGreaterThan(
        profile.indexOf('(deny file-read* file-write*'),
      );
      // Still no IP network, and no other socket.
      expect(profile).not.toContain('(remote ip)');
      expect(profile.match(/remote unix-socket/g)).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('denies writes to .garuda, .git, hooks and config after the allow, even when they do not exist, without creating them', () => {
    const { root, policy } = setup();
    mkdirSync(path.join(root, '.git'));
    const { profile } = profileOf([process.execPath], policy);
    const allow = profile.indexOf('(allow file-write*');
    const deny = profile.indexOf('(deny file-write*');
    expect(allow).toBeGreaterThan(0);
    expect(deny).toBeGreaterThan(allow);
    const rule = profile.slice(deny);
    expect(rule).toContain(`(subpath "${root}/.garuda")`);
    expect(rule).toContain(`(literal "${root}/.git")`);
    expect(rule).toContain(`(subpath "${root}/.git/hooks")`);
    expect(rule).toContain(`(subpath "${root}/.git/config")`);
    expect(existsSync(path.join(root, '.garuda'))).toBe(false);
    expect(existsSync(path.join(root, '.git', 'hooks'))).toBe(false);
  });

  it('hides garudaHome and every credential path, existing or not, in the last rule', () => {
    const { home, policy } = setup();
    put(path.join(home, '.ssh', 'id_rsa'), 'key');
    const { profile } = profileOf([process.execPath], { ...policy, root: home });
    const hide = profile.lastIndexOf('(deny file-read* file-write*');
    expect(hide).toBeGreaterThan(profile.indexOf('(deny file-write*'));
    const rule = profile.slice(hide);
    for (const name of [...HIDDEN_HOME_PATHS, ...HIDDEN_MACOS_HOME_PATHS]) {
      expect(rule).toContain(`(subpath "${path.join(home, name)}")`);
    }
    // Path rules: nothing is made on disk for the missing ones.
    expect(readdirSync(home).sort()).toEqual(['.ssh']);
    // Nothing comes after the hidden paths.
    expect(rule.trimEnd().endsWith(')')).toBe(true);
    expect(rule.slice(1)).not.toContain('(allow');
  });

  it('allows reading a revealed credential path after the hidden rule (later rules win), never writing it', () => {
    const { home, policy } = setup();
    const kube = path.join(home, '.kube');
    put(path.join(kube, 'config'), 'apiVersion: v1');
    const netrc = put(path.join(home, '.netrc'), 'machine x password y');
    put(path.join(home, '.ssh', 'id_rsa'), 'key');
    const { profile } = profileOf([process.execPath], {
      ...policy,
      root: home,
      readPaths: [kube, netrc],
    });
    const hide = profile.lastIndexOf('(deny file-read* file-write*');
    const reveal = profile.indexOf('(allow file-read*\n');
    expect(hide).toBeGreaterThan(0);
    expect(reveal).toBeGreaterThan(hide);
    // Still hidden first: the reveal comes on top of the hiding.
    expect(profile.slice(hide, reveal)).toContain(`(subpath "${kube}")`);
    expect(profile.slice(reveal)).toBe(
      `(allow file-read*\n  (subpath "${kube}")\n  (literal "${netrc}"))\n`,
    );
    // Reading only: no write rule comes after the hiding, so writes stay denied.
    expect(profile.slice(hide)).not.toContain('(allow file-write');
    expect(profile.slice(reveal)).not.toContain(path.join(home, '.ssh'));
    // Without read paths the profile ends with the hidden paths, as before.
    const plain = profileOf([process.execPath], { ...policy, root: home }).profile;
    expect(plain.slice(plain.lastIndexOf('(deny file-read* file-write*')).slice(1)).not.toContain(
      '(allow',
    );
  });

  it('hides again what is hidden inside a revealed folder, after the reveal', () => {
    const { home, policy } = setup();
    const kube = path.join(home, '.kube');
    put(path.join(kube, 'config'), 'apiVersion: v1');
    put(path.join(kube, 'ssh', 'id_rsa'), 'key');
    symlinkSync(path.join(kube, 'ssh'), path.join(home, '.ssh'));
    const { profile } = profileOf([process.execPath], { ...policy, readPaths: [kube] });
    const reveal = profile.indexOf('(allow file-read*\n');
    expect(profile.slice(reveal)).toBe(
      `(allow file-read*\n  (subpath "${kube}"))\n` +
        '; Hidden again inside a revealed folder.\n' +
        `(deny file-read* file-write*\n  (subpath "${path.join(kube, 'ssh')}"))\n`,
    );
  });

  it("hides the other servers' homes and allows the own one after, before the hidden paths", () => {
    const { root, home, policy } = setup();
    const homes = path.join(home, '.local', 'share', 'garuda-mcp', 'servers');
    const own = path.join(homes, 'mine');
    mkdirSync(path.join(own, 'cache'), { recursive: true });
    mkdirSync(path.join(homes, 'theirs'));
    const { profile, args } = profileOf([process.execPath], {
      ...policy,
      serverHome: { dir: own, homesDir: homes, cache: path.join(own, 'cache') },
    });
    const rules = sbplRules(profile);
    const params = sbplParams(args);
    const verdict = (op: string, file: string): string => decide(rules, op, file, params);
    expect(verdict('file-write-create', path.join(own, 'state.json'))).toBe('allow');
    expect(verdict('file-read-data', path.join(own, 'state.json'))).toBe('allow');
    expect(verdict('file-read-data', path.join(homes, 'theirs', 'data.json'))).toBe('deny');
    expect(verdict('file-write-create', path.join(homes, 'theirs', 'x'))).toBe('deny');
    expect(verdict('file-write-create', path.join(homes, 'new'))).toBe('deny');
    // No folder is shown at another place on macOS: ~/.cache stays read-only.
    expect(verdict('file-write-create', path.join(home, '.cache', 'x'))).toBe('deny');
    expect(verdict('file-read-data', path.join(root, 'x'))).toBe('allow');
    // The hidden paths still come last and win.
    expect(profile.indexOf(`(subpath "${homes}")`)).toBeLessThan(
      profile.lastIndexOf('(deny file-read* file-write*\n'),
    );
  });

  it('refuses garudaHome as a read path on macOS too', () => {
    const { policy } = setup();
    mkdirSync(policy.garudaHome);
    expect(() =>
      profileOf([process.execPath], { ...policy, readPaths: [policy.garudaHome] }),
    ).toThrow(/readPaths\[0\] .* Garuda's own folder/);
  });

  it('denies renaming the folders above an existing hidden path where their folder is writable', () => {
    const { home, policy } = setup();
    put(path.join(home, '.docker', 'config.json'), '{}');
    put(path.join(home, '.config', 'gh', 'hosts.yml'), 'token');
    const pinned = (p: SandboxPolicy): string => {
      const { profile } = profileOf([process.execPath], p);
      return profile.slice(
        profile.indexOf('(deny file-write*'),
        profile.lastIndexOf('(deny file-read* file-write*'),
      );
    };
    for (const widened of [
      { ...policy, root: home },
      { ...policy, writePaths: [home] },
    ]) {
      const rule = pinned(widened);
      // `literal`: the folder itself (a rename or removal), not its entries.
      expect(rule).toContain(`(literal "${path.join(home, '.docker')}")`);
      expect(rule).toContain(`(literal "${path.join(home, '.config')}")`);
      // A missing path needs none: its own rule denies creating it wherever its folders go.
      expect(rule).not.toContain(path.join(home, '.local'));
      expect(rule).not.toContain(path.join(home, '.cargo'));
    }
    // The project cannot rename anything in the home folder: no pins.
    expect(pinned(policy)).not.toContain(home);
  });

  it('refuses a credential path that is a link in a folder the server may write', () => {
    const { home, policy } = setup();
    const target = put(path.join(temp.make('dotfiles'), 'netrc'), 'machine x password y');
    symlinkSync(target, path.join(home, '.netrc'));
    expect(() => profileOf([process.execPath], policy)).not.toThrow();
    expect(() => profileOf([process.execPath], { ...policy, root: home })).toThrow(
      UnprotectablePathError,
    );
  });

  it('quotes a path with quotes and backslashes so it cannot end the rule', () => {
    // A folder name that tries to close the string and add a rule of its own.
    const { root, policy } = setup('we\\ird") (allow file-write* (subpath "x');
    const { profile } = profileOf([process.execPath], policy);
    const escaped = root.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    expect(profile).toContain(`(subpath "${escaped}")`);
    const start =
      profile.indexOf('(subpath "', profile.indexOf('(allow file-write*')) + '(subpath '.length;
    expect(unquote(profile, start)).toBe(root);
    // Outside string literals, the profile holds no rule the name tried to add.
    const outsideStrings = profile.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    expect(outsideStrings).not.toContain('(allow file-write* (subpath');
  });

  it('refuses a path with a control character', () => {
    const { policy } = setup('line\nbreak');
    expect(() => profileOf([process.execPath], policy)).toThrow(InvalidPolicyError);
    expect(() => profileOf([process.execPath], policy)).toThrow(/control character/);
  });

  it('passes a path longer than the string literal limit as a -D parameter', () => {
    const { policy } = setup();
    let deep = policy.root;
    while (Buffer.byteLength(deep) <= SBPL_MAX_LITERAL_BYTES + 10)
      deep = path.join(deep, 'd'.repeat(200));
    // Linux can make such a folder; macOS cannot (PATH_MAX is 1024 there).
    if (process.platform === 'darwin') {
      const { profile, params } = seatbeltProfile({
        writable: [{ path: deep, isDirectory: true }],
        temps: [],
        protections: [],
        hidden: [],
        network: false,
      });
      expect(profile).toContain('(subpath (param "GARUDA_PATH_0"))');
      expect(params).toEqual(['-D', `GARUDA_PATH_0=${deep}`]);
      return;
    }
    mkdirSync(deep, { recursive: true });
    const { profile, args } = profileOf([process.execPath], { ...policy, writePaths: [deep] });
    expect(profile).toContain('(subpath (param "GARUDA_PATH_0"))');
    expect(profile).not.toContain(deep);
    const separator = args.indexOf('--');
    expect(args.slice(2, separator)).toEqual(['-D', `GARUDA_PATH_0=${deep}`]);
    // The parameter stands for the path in every rule: writable, its .git protected.
    const rules = sbplRules(profile);
    const params = sbplParams(args.slice(2));
    expect(decide(rules, 'file-write-create', path.join(deep, 'x'), params)).toBe('allow');
  });

  it('resolves the command and refuses one inside a hidden folder', () => {
    const { home, policy } = setup();
    const { args } = profileOf(['node'], policy);
    expect(args.at(-1)).toBe(process.execPath);
    const hiddenTool = put(path.join(home, '.aws', 'bin', 'tool'), '#!/bin/sh\n');
    chmodSync(hiddenTool, 0o755);
    expect(() => buildSandbox([hiddenTool], policy, SEATBELT)).toThrow(
      /not visible inside the sandbox/,
    );
  });

  it('points TMPDIR at /private/tmp unless it is writable inside', () => {
    const { root, policy } = setup();
    const a = buildSandbox(
      [process.execPath],
      { ...policy, env: { TMPDIR: '/nonexistent/tmp' } },
      SEATBELT,
    );
    expect(a.env.TMPDIR).toBe('/private/tmp');
    const b = buildSandbox([process.execPath], { ...policy, env: { TMPDIR: root } }, SEATBELT);
    expect(b.env.TMPDIR).toBe(root);
  });
});

/** What a policy's profile must hold, beside what every profile holds. */
interface Case {
  readonly policy: SandboxPolicy;
  /** Read paths at or inside a credential path: readable, never writable. */
  readonly revealed?: readonly string[];
  /** Paths inside the writable folders that must stay read-only (DESIGN: .garuda and git's). */
  readonly readOnly?: readonly string[];
  /** Paths that must stay writable. */
  readonly writable?: readonly string[];
  /** Paths that must not be writable (beyond the ones every case checks). */
  readonly notWritable?: readonly string[];
}

/** Builds the profile of `policy` and parses it. */
function rulesOf(policy: SandboxPolicy): {
  rules: SbplRule[];
  params: Record<string, string>;
  may: (op: string, file: string) => boolean;
} {
  const { args } = buildSandbox([process.execPath], policy, SEATBELT);
  const rules = sbplRules(args[1] as string);
  const params = sbplParams(args.slice(2));
  return { rules, params, may: (op, file) => decide(rules, op, file, params) === 'allow' };
}

/** The operations a server could use to read or change a path. */
const READS = ['file-read-data', 'file-read-metadata', 'file-read-xattr'];
const WRITES = [
  'file-write-data',
  'file-write-create',
  'file-write-unlink',
  'file-write-mode',
  'file-write-xattr',
];

/** The rules that are not about files: exactly these in every profile (network aside). */
const BASE_NON_FILE_RULES = [
  '(deny default)',
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow signal (target same-sandbox))',
  '(allow process-info* (target same-sandbox))',
  '(allow sysctl-read)',
  '(allow mach-host*)',
  '(allow user-preference-read)',
  '(allow ipc-posix-sem)',
  '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
  '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger") (global-name "com.apple.PowerManagement.control"))',
];

/** What `network: true` adds, and nothing else: IP, and the DNS resolver's socket and services. */
const NETWORK_ONLY_RULES = [
  '(allow network-outbound (remote ip))',
  '(allow network-inbound (local ip))',
  '(allow network-bind (local ip))',
  '(allow system-socket)',
  '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
  '(allow mach-lookup (global-name "com.apple.dnssd.service") (global-name "com.apple.SystemConfiguration.DNSConfiguration") (global-name "com.apple.SystemConfiguration.configd") (global-name "com.apple.networkd") (global-name "com.apple.trustd.agent") (global-name "com.apple.ocspd") (global-name "com.apple.SecurityServer"))',
];

const isFileRule = (rule: SbplRule): boolean => rule.ops.every((op) => op.startsWith('file-'));
const showRule = (rule: SbplRule): string =>
  show({
    list: [{ symbol: rule.verb }, ...rule.ops.map((symbol) => ({ symbol })), ...rule.filters],
  });

/**
 * Checks every rule the profile of `c.policy` must hold: deny by default; the process, system and
 * network rules exactly; every hidden path (garudaHome and each of HIDDEN_HOME_PATHS, taken from
 * the list the sandbox uses) unreadable and unwritable, inside too, unless a read path reveals it
 * (then readable, still unwritable); the project's metadata read-only; writes only to the root,
 * the write paths and the temp folders.
 */
function checkEveryRule(c: Case): void {
  const { policy } = c;
  const { rules, may } = rulesOf(policy);
  const resolved = resolvePolicy(policy);

  expect(rules[0]).toEqual({ verb: 'deny', ops: ['default'], filters: [] });
  expect(rules.filter((rule) => !isFileRule(rule)).map(showRule)).toEqual([
    ...BASE_NON_FILE_RULES,
    ...(resolved.network ? NETWORK_ONLY_RULES : []),
  ]);
  // No blanket allowance but reading.
  expect(
    rules.filter((rule) => rule.verb === 'allow' && rule.filters.length === 0 && isFileRule(rule)),
  ).toEqual([{ verb: 'allow', ops: ['file-read*'], filters: [] }]);

  // Hidden: garudaHome and every credential path, as the sandbox lists them.
  const revealed = (c.revealed ?? []).map((file) => revealedOf(file));
  const shownAt = (target: string): boolean =>
    revealed.some((r) => target === r.path || (r.isDirectory && target.startsWith(`${r.path}/`)));
  const hidden = [
    resolved.garudaHome,
    ...[...HIDDEN_HOME_PATHS, ...HIDDEN_MACOS_HOME_PATHS].map((entry) =>
      path.join(resolved.home, entry),
    ),
    ...hiddenPaths(resolved, { system: false, macos: true, nested: true }).map(
      (entry) => entry.path,
    ),
  ];
  for (const file of hidden) {
    for (const target of [file, path.join(file, 'inside')]) {
      for (const op of READS) {
        expect([op, target, may(op, target)]).toEqual([op, target, shownAt(target)]);
      }
      for (const op of WRITES) expect([op, target, may(op, target)]).toEqual([op, target, false]);
    }
  }

  // Writable: the root, the write paths (a file only itself) and the temp folders.
  const writable = [
    path.join(resolved.root, 'file.txt'),
    ...resolved.writePaths.map((entry) =>
      entry.isDirectory ? path.join(entry.path, 'file.txt') : entry.path,
    ),
    '/private/tmp/file.txt',
    ...resolved.tempDirs.map((dir) => path.join(dir, 'file.txt')),
    ...(c.writable ?? []),
  ];
  for (const file of writable) {
    for (const op of [...READS, ...WRITES]) {
      expect([op, file, may(op, file)]).toEqual([op, file, true]);
    }
  }
  // Not writable: beside the root, the system, the host's own temp folder, the home folder
  // (unless the root or a write path holds it), and each read-only path.
  const notWritable = [
    path.join(path.dirname(resolved.root), 'beside.txt'),
    '/etc/hosts',
    '/usr/local/bin/evil',
    '/private/var/folders/xy/T/file.txt',
    '/Library/LaunchDaemons/evil.plist',
    ...(writable.some((file) => isWithinPath(resolved.home, path.dirname(file)))
      ? []
      : [path.join(resolved.home, 'Library/LaunchAgents/evil.plist')]),
    ...resolved.writePaths
      .filter((entry) => !entry.isDirectory)
      .map((entry) => `${entry.path}.sibling`),
    ...(c.readOnly ?? []),
    ...(c.notWritable ?? []),
  ];
  for (const file of notWritable) {
    for (const op of WRITES) expect([op, file, may(op, file)]).toEqual([op, file, false]);
  }
  // Read-only paths stay readable.
  for (const file of c.readOnly ?? []) {
    expect(['file-read-data', file, may('file-read-data', file)]).toEqual([
      'file-read-data',
      file,
      true,
    ]);
  }
}

/** A read path as the sandbox resolves it: its real path, and whether it is a folder. */
function revealedOf(file: string): { path: string; isDirectory: boolean } {
  const [read] = resolvePolicy({
    root: path.dirname(file),
    home: '/',
    garudaHome: '/nonexistent-garuda',
    baseEnv: {},
    platform: 'darwin',
    readPaths: [file],
  }).readPaths;
  return { path: read!.path, isDirectory: read!.isDirectory };
}

function isWithinPath(parent: string, child: string): boolean {
  return child === parent || child.startsWith(`${parent}/`);
}

describe('the Seatbelt profile, rule by rule, for a set of policies', () => {
  const cases: [string, () => Case][] = [
    [
      'a project, nothing else',
      () => {
        const { home, policy } = setup();
        put(path.join(home, '.ssh', 'id_rsa'), 'key');
        put(path.join(home, '.netrc'), 'machine x');
        return { policy };
      },
    ],
    [
      'network allowed',
      () => {
        const { policy } = setup();
        return { policy: { ...policy, network: true } };
      },
    ],
    [
      'write paths (a folder with its own .git, a file) and a temp dir',
      () => {
        const { policy } = setup();
        const extra = temp.make('extra');
        put(path.join(extra, '.git', 'config'), '[core]\n');
        const file = put(path.join(temp.make('files'), 'out.log'), '');
        const scratch = temp.make('scratch');
        return {
          policy: { ...policy, writePaths: [extra, file], tempDirs: [scratch] },
          readOnly: [
            path.join(extra, '.git', 'config'),
            path.join(extra, '.git', 'hooks', 'pre-push'),
          ],
          writable: [path.join(extra, '.git', 'HEAD')],
          notWritable: [path.join(extra, '.git')],
        };
      },
    ],
    [
      'read paths that reveal ~/.kube and ~/.netrc',
      () => {
        const { home, policy } = setup();
        const kube = path.join(home, '.kube');
        put(path.join(kube, 'config'), 'apiVersion: v1');
        const netrc = put(path.join(home, '.netrc'), 'machine x');
        put(path.join(home, '.ssh', 'id_rsa'), 'key');
        return { policy: { ...policy, readPaths: [kube, netrc] }, revealed: [kube, netrc] };
      },
    ],
    [
      'project metadata: .git (hooksPath, include), .garuda, .vscode',
      () => {
        const { root, policy } = setup();
        const at = (...parts: string[]): string => path.join(root, ...parts);
        put(
          at('.git', 'config'),
          '[core]\n\thooksPath = .husky/_\n[include]\n\tpath = ../.gitconfig.local\n',
        );
        mkdirSync(at('.git', 'hooks'));
        put(at('.husky', '_', 'pre-commit'), '#!/bin/sh\n');
        put(at('.garuda', 'mcp.json'), '{}');
        put(at('.vscode', 'settings.json'), '{}');
        return {
          policy,
          readOnly: [
            at('.garuda', 'mcp.json'),
            at('.garuda', 'new.json'),
            at('.git', 'config'),
            at('.git', 'hooks', 'post-checkout'),
            at('.husky', '_', 'pre-commit'),
            at('.gitconfig.local'),
          ],
          // git can still commit; .git itself cannot be renamed or removed.
          writable: [at('.git', 'HEAD'), at('.git', 'objects', 'ab')],
          notWritable: [at('.git'), at('.garuda')],
        };
      },
    ],
    [
      'a git worktree (.git is a file) and a missing .garuda',
      () => {
        const { root, policy } = setup();
        put(path.join(root, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
        return {
          policy,
          readOnly: [path.join(root, '.git'), path.join(root, '.garuda', 'mcp.json')],
        };
      },
    ],
    [
      'the root is the home folder, with credentials in it',
      () => {
        const { home, policy } = setup();
        put(path.join(home, '.docker', 'config.json'), '{}');
        put(path.join(home, '.config', 'gh', 'hosts.yml'), 'token');
        put(path.join(home, '.ssh', 'id_rsa'), 'key');
        return {
          policy: { ...policy, root: home },
          // The folders above an existing hidden path cannot be renamed; their entries stay
          // writable.
          notWritable: [path.join(home, '.docker'), path.join(home, '.config')],
          writable: [path.join(home, '.docker', 'buildx.json'), path.join(home, '.config', 'x')],
        };
      },
    ],
    [
      'paths that need quoting: quotes, backslashes, parentheses, semicolons, spaces',
      () => {
        const hostile = 'we"ird\\ (allow file-write* (subpath "x")) ; y';
        const { root, policy } = setup(hostile);
        const extra = path.join(temp.make('extra'), hostile);
        mkdirSync(extra);
        put(path.join(root, '.git', 'config'), '');
        return {
          policy: { ...policy, writePaths: [extra] },
          readOnly: [path.join(root, '.git', 'config'), path.join(root, '.garuda', 'x')],
          writable: [path.join(extra, 'file.txt')],
        };
      },
    ],
  ];

  it.each(cases)('%s: holds every rule it must', (_name, make) => {
    checkEveryRule(make());
  });

  it('opens exactly IP networking and DNS with network: true, and nothing else', () => {
    const { policy } = setup();
    const off = rulesOf(policy).rules.map(showRule);
    const on = rulesOf({ ...policy, network: true }).rules.map(showRule);
    expect(on.filter((rule) => !off.includes(rule))).toEqual(NETWORK_ONLY_RULES);
    expect(off.filter((rule) => !on.includes(rule))).toEqual([]);
    // Without network, no network rule at all (Unix sockets included: ssh-agent, Docker…).
    expect(off.filter((rule) => /network|system-socket/.test(rule))).toEqual([]);
  });

  it('keeps the shape of the profile whatever the names of its paths', () => {
    const make = (name: string): string[] => {
      const { root, policy } = setup(name);
      put(path.join(root, '.git', 'config'), '');
      const extra = path.join(temp.make('shape'), name);
      mkdirSync(extra);
      writeFileSync(path.join(extra, 'f'), '');
      return rulesOf({ ...policy, writePaths: [extra, path.join(extra, 'f')] }).rules.map((rule) =>
        show(
          {
            list: [
              { symbol: rule.verb },
              ...rule.ops.map((symbol) => ({ symbol })),
              ...rule.filters,
            ],
          },
          true,
        ),
      );
    };
    const plain = make('plain');
    for (const name of [
      'a"b',
      'a\\b',
      'a\\',
      '\\"',
      ') (allow default) (',
      '; (allow file-write*)',
      '"))\n',
      'ünï cødé ✓',
      '#|x|#',
    ].filter((name) => !name.includes('\n'))) {
      expect(make(name)).toEqual(plain);
    }
  });

  it('reads back every path exactly, for any name without control characters (property)', () => {
    fc.assert(
      fc.property(
        fc
          .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
          .filter((s) => !/[\p{Cc}/]/u.test(s) && s !== '.' && s !== '..'),
        (name) => {
          const file = `/Users/ada/${name}`;
          const { profile } = seatbeltProfile({
            writable: [{ path: file, isDirectory: true }],
            temps: ['/private/tmp'],
            protections: [{ path: `${file}/.garuda`, kind: 'missing-directory' }],
            hidden: [{ path: `/Users/ada/.ssh/${name}`, type: 'missing', list: 'home', links: [] }],
            network: false,
          });
          const rules = sbplRules(profile);
          expect(decide(rules, 'file-write-create', `${file}/x`)).toBe('allow');
          expect(decide(rules, 'file-write-create', `${file}/.garuda/x`)).toBe('deny');
          expect(decide(rules, 'file-read-data', `/Users/ada/.ssh/${name}`)).toBe('deny');
          expect(decide(rules, 'file-write-create', `/Users/ada/${name}x/y`)).toBe('deny');
          expect(rules).toHaveLength(parseSbpl(profile).length - 1);
        },
      ),
    );
  });

  it('refuses a control character in every path that reaches the profile', () => {
    const { root, home, policy } = setup();
    const bad = path.join(temp.make('bad'), 'a\nb');
    mkdirSync(bad);
    for (const widened of [
      { ...policy, root: bad },
      { ...policy, writePaths: [bad] },
      { ...policy, tempDirs: [bad] },
      { ...policy, home: bad },
      { ...policy, garudaHome: path.join(bad, '.garuda') },
    ]) {
      expect(() => buildSandbox([process.execPath], widened, SEATBELT)).toThrow(InvalidPolicyError);
    }
    expect(() => buildSandbox([process.execPath], { ...policy, root }, SEATBELT)).not.toThrow();
    expect(home).not.toContain('\n');
  });
});

describe('sbplString', () => {
  it('escapes backslashes and double quotes', () => {
    expect(sbplString('a"b\\c', 'x')).toBe('"a\\"b\\\\c"');
  });

  it.each(['\n', '\r', '\t', '\0', '\x1b', '\x7f', '\u0085', '\ud800'])('refuses %j', (ch) => {
    expect(() => sbplString(`/a${ch}b`, 'root')).toThrow(InvalidPolicyError);
  });

  it('reads back as the original, and never ends early, for any text without controls', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 60 }).filter((s) => !/[\p{Cc}]/u.test(s)),
        (text) => {
          const literal = sbplString(text, 'x');
          expect(unquote(literal, 0)).toBe(text);
          // The only unescaped quotes are the two ends.
          const body = literal.slice(1, -1).replace(/\\./g, '');
          expect(body).not.toContain('"');
        },
      ),
    );
  });
});
