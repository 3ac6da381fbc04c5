import { cleanLine } from '@garuda/mcp-sanitize';

/** Package managers' install commands, for the "install bubblewrap" advice. @internal */
export const INSTALL_BUBBLEWRAP =
  'install bubblewrap (apt-get install bubblewrap, dnf install bubblewrap, pacman -S bubblewrap, ' +
  'apk add bubblewrap, zypper install bubblewrap)';

const MAX_LINE_CHARS = 200;

/**
 * The first non-empty line of a program's error output, made safe to show: no escape sequences,
 * control, invisible or bidi characters, whitespace collapsed, at most 200 characters. @internal
 */
export function firstLine(text: string): string {
  for (const line of text.slice(0, 4096).split(/\r\n|\r|\n/)) {
    const cleaned = cleanLine(line);
    if (cleaned !== '') {
      return cleaned.length > MAX_LINE_CHARS ? `${cleaned.slice(0, MAX_LINE_CHARS)}…` : cleaned;
    }
  }
  return '';
}

interface Hint {
  readonly test: RegExp;
  readonly advice: (version: string | undefined) => string;
}

// From bubblewrap's source and from issues downstream (Flatpak, sandbox-runtime, distributions).
// Checked in order; the first match wins.
const BWRAP_HINTS: readonly Hint[] = [
  {
    test: /Unknown option --disable-userns|--disable-userns.*(?:not supported|unrecognized)/i,
    advice: (version) =>
      `bubblewrap is too old for --disable-userns (needs 0.8.0${version ? `, this is ${version}` : ''}): upgrade bubblewrap`,
  },
  {
    test: /No permissions to creat(?:e|ing) new namespace/i,
    advice: () =>
      'user namespaces are disabled: sysctl kernel.unprivileged_userns_clone=1 ' +
      '(and make sure user.max_user_namespaces is above 0), or install bwrap setuid root',
  },
  {
    test: /setting up uid map: Permission denied|uid map.*Permission denied/i,
    advice: () =>
      'AppArmor restricts unprivileged user namespaces (Ubuntu 23.10+): allow them for bwrap with ' +
      'an AppArmor profile (abi <abi/4.0>, "userns," for /usr/bin/bwrap) or set ' +
      'sysctl kernel.apparmor_restrict_unprivileged_userns=0',
  },
  {
    test: /kernel does not support user namespaces|must be installed setuid/i,
    advice: () =>
      'this kernel does not allow unprivileged user namespaces: use a kernel with them enabled, ' +
      'or install bwrap setuid root (chmod u+s /usr/bin/bwrap)',
  },
  {
    test: /No space left on device/i,
    advice: () =>
      'no user namespaces can be created (sysctl user.max_user_namespaces is 0 or used up): ' +
      'raise it, e.g. sysctl user.max_user_namespaces=15000',
  },
  {
    test: /Creating new namespace failed: (?:Operation not permitted|Permission denied)/i,
    advice: () =>
      'new namespaces are not permitted here, probably inside a container: allow user namespaces ' +
      'in the container (e.g. a seccomp profile that permits clone/unshare) or run Garuda outside it',
  },
  {
    test: /(?:namespace|unshare|clone)[^\n]*(?:Function not implemented|Invalid argument)/i,
    advice: () =>
      'this kernel has no user namespace support (CONFIG_USER_NS): namespaces are required',
  },
  {
    test: /Operation not permitted|Permission denied/i,
    advice: () =>
      'bubblewrap was not allowed to set up the sandbox (a security module or container policy ' +
      'forbids it)',
  },
];

/**
 * A person's explanation of why the bubblewrap probe failed, with what to do, followed by what
 * bubblewrap printed (its first line, cleaned). @internal
 *
 * @param stderr - bubblewrap's error output.
 * @param exit - How it ended, for the fallback message.
 * @param version - bubblewrap's version, when known.
 * @returns The reason.
 */
export function explainBwrapFailure(
  stderr: string,
  exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null },
  version: string | undefined,
): string {
  const line = firstLine(stderr);
  const hint = BWRAP_HINTS.find((candidate) => candidate.test.test(stderr));
  const advice =
    hint?.advice(version) ??
    (exit.signal
      ? `the bubblewrap check was stopped by ${exit.signal}`
      : `bubblewrap cannot create a sandbox here (exit code ${String(exit.code)})`);
  return line === '' ? advice : `${advice} (bwrap said: ${JSON.stringify(line)})`;
}

/**
 * A person's explanation of why the macOS `sandbox-exec` probe failed. @internal
 *
 * @param stderr - sandbox-exec's error output.
 * @param exit - How it ended.
 * @returns The reason.
 */
export function explainSeatbeltFailure(
  stderr: string,
  exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null },
): string {
  const line = firstLine(stderr);
  const advice = /sandbox_apply: Operation not permitted/i.test(stderr)
    ? 'already running inside a macOS sandbox (sandbox-exec cannot nest): start Garuda outside it'
    : exit.signal
      ? `the sandbox-exec check was stopped by ${exit.signal}`
      : `sandbox-exec cannot create a sandbox here (exit code ${String(exit.code)})`;
  return line === '' ? advice : `${advice} (sandbox-exec said: ${JSON.stringify(line)})`;
}
