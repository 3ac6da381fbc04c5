import { chmodSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import type { SandboxInfo } from './detect-sandbox.js';
import { InvalidPolicyError, UnprotectablePathError } from './errors.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import {
  CREDENTIAL_FILES,
  CREDENTIAL_FOLDERS,
  TempDirs,
  projectWithHome,
  put,
} from './sandbox-test-support.js';
import { SBPL_MAX_LITERAL_BYTES, sbplString } from './seatbelt-profile.js';

// The macOS profile cannot run on our Linux machines: these tests check its text. The policy's
// paths are real folders here (buildSandbox checks they exist), with platform: 'darwin'.
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
    for (const name of [...CREDENTIAL_FOLDERS, ...CREDENTIAL_FILES]) {
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
    mkdirSync(deep, { recursive: true });
    const { profile, args } = profileOf([process.execPath], { ...policy, writePaths: [deep] });
    expect(profile).toContain('(subpath (param "GARUDA_PATH_0"))');
    expect(profile).not.toContain(deep);
    const separator = args.indexOf('--');
    expect(args.slice(2, separator)).toEqual(['-D', `GARUDA_PATH_0=${deep}`]);
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
