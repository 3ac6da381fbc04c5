// The macOS Seatbelt (SBPL) profile, written by hand for the same reasons as the bubblewrap
// argv (see bwrap-args.ts). seatbelt-profile.test.ts parses it and checks its rules on every OS;
// the os-sandbox-*.test.ts files run it for real on macOS.
import { InvalidPolicyError } from './errors.js';
import type { HiddenPath } from './hidden-paths.js';
import type { Protection } from './protected-paths.js';
import { hidingLayers, type Reveals } from './revealed-paths.js';

/**
 * The longest path (in UTF-8 bytes, after escaping) written into the profile as a string
 * literal. Seatbelt's string literals are limited to 1025 bytes (per sandbox-runtime's source);
 * a longer path is passed as a `-D` parameter instead. @internal
 */
export const SBPL_MAX_LITERAL_BYTES = 1024;

/** What the macOS sandbox is made of, in real paths. @internal */
export interface SeatbeltPlan {
  /** The root first, then the write paths. */
  readonly writable: readonly { readonly path: string; readonly isDirectory: boolean }[];
  /** `/private/tmp` first, then the policy's temp dirs (writable, not private on macOS). */
  readonly temps: readonly string[];
  readonly protections: readonly Protection[];
  readonly hidden: readonly HiddenPath[];
  /** Read paths that show a hidden credential path (read-only), and what stays hidden in them. */
  readonly reveals?: Reveals;
  readonly network: boolean;
  /** A container engine's socket the server may connect to (see `SandboxPolicy.engineSocket`). */
  readonly engineSocket?: string;
  /** The server's own home and the folder of every server's home (see `SandboxPolicy.serverHome`). */
  readonly serverHome?: { readonly dir: string; readonly homesDir: string };
}

/** A profile and the `-D KEY=VALUE` parameters its `(param "KEY")` references need. @internal */
export interface SeatbeltProfile {
  readonly profile: string;
  /** Alternating `-D` and `KEY=VALUE`, ready to put before `--` on the command line. */
  readonly params: readonly string[];
}

// C0, DEL and C1 controls, and lone surrogates (not encodable as UTF-8).
const UNSAFE = /[\p{Cc}]|\p{Cs}/u;

/**
 * Quotes `value` as an SBPL string literal: `\` and `"` are escaped; control characters and
 * lone surrogates are refused (a newline inside a rule is not worth the risk of a parser that
 * reads it differently). @internal
 *
 * @param value - The text, typically a path.
 * @param field - Where it came from, for the error.
 * @returns The literal, with its double quotes.
 * @throws {@link InvalidPolicyError} for control characters or lone surrogates.
 */
export function sbplString(value: string, field: string): string {
  checkSbplText(value, field);
  return `"${value.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
}

function checkSbplText(value: string, field: string): void {
  if (UNSAFE.test(value)) {
    throw new InvalidPolicyError(
      field,
      'contains a control character, which a macOS sandbox profile cannot hold safely; rename it.',
    );
  }
}

class PathWriter {
  readonly params: string[] = [];
  #count = 0;

  /** A path as an SBPL expression: a literal, or `(param "…")` when the literal would be too long. */
  expr(file: string, field: string): string {
    const literal = sbplString(file, field);
    if (Buffer.byteLength(literal, 'utf8') - 2 <= SBPL_MAX_LITERAL_BYTES) return literal;
    const key = `GARUDA_PATH_${this.#count}`;
    this.#count += 1;
    this.params.push('-D', `${key}=${file}`);
    return `(param ${sbplString(key, field)})`;
  }
}

const BASE_RULES = [
  '(version 1)',
  '(deny default)',
  '; Written by @garuda/mcp-transport for one MCP server. Later rules win over earlier ones.',
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow signal (target same-sandbox))',
  '(allow process-info* (target same-sandbox))',
  '(allow sysctl-read)',
  '(allow mach-host*)',
  '(allow user-preference-read)',
  '(allow ipc-posix-sem)',
  '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
  '(allow mach-lookup',
  '  (global-name "com.apple.system.opendirectoryd.libinfo")',
  '  (global-name "com.apple.system.logger")',
  '  (global-name "com.apple.PowerManagement.control"))',
  '; Reading is allowed everywhere except the hidden paths at the end.',
  '(allow file-read*)',
  '(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper"))',
  '(allow file-ioctl (literal "/dev/dtracehelper"))',
];

const NETWORK_RULES = [
  '; Network: IP only. Unix sockets other than the DNS resolver stay closed (ssh-agent, Docker…).',
  '(allow network-outbound (remote ip))',
  '(allow network-inbound (local ip))',
  '(allow network-bind (local ip))',
  '(allow system-socket)',
  '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
  '(allow mach-lookup',
  '  (global-name "com.apple.dnssd.service")',
  '  (global-name "com.apple.SystemConfiguration.DNSConfiguration")',
  '  (global-name "com.apple.SystemConfiguration.configd")',
  '  (global-name "com.apple.networkd")',
  '  (global-name "com.apple.trustd.agent")',
  '  (global-name "com.apple.ocspd")',
  '  (global-name "com.apple.SecurityServer"))',
];

/**
 * The SBPL profile for a plan, with the same meaning as the Linux sandbox: deny by default; run
 * and fork; read everything but the hidden paths (and, after them, the revealed read paths
 * again); write only the root, the write paths and the
 * temp folders, never the protected paths; network (IP, plus the DNS resolver's socket) only
 * when allowed. Seatbelt names paths, not mounts, so paths that do not exist yet can be denied
 * too, with no empty folder appearing. @internal
 *
 * @param plan - The macOS plan.
 * @returns The profile text and its `-D` parameters.
 * @throws {@link InvalidPolicyError} when a path holds a control character.
 */
export function seatbeltProfile(plan: SeatbeltPlan): SeatbeltProfile {
  const writer = new PathWriter();
  const lines = [...BASE_RULES];

  const writable = [
    ...plan.writable.map(
      (entry, index) =>
        `(${entry.isDirectory ? 'subpath' : 'literal'} ${writer.expr(entry.path, index === 0 ? 'root' : 'writePaths')})`,
    ),
    ...plan.temps.map((dir) => `(subpath ${writer.expr(dir, 'tempDirs')})`),
  ];
  lines.push('; Writable: the project root, the write paths and the temp folders.');
  lines.push(`(allow file-write*\n  ${writable.join('\n  ')})`);

  if (plan.network) lines.push(...NETWORK_RULES);

  if (plan.protections.length > 0) {
    const denied = plan.protections.map((protection) =>
      // A pinned `.git` (or folder above a hidden path) may have entries written, but cannot
      // itself be renamed or removed.
      protection.kind === 'pin'
        ? `(literal ${writer.expr(protection.path, 'root')})`
        : `(subpath ${writer.expr(protection.path, 'root')})`,
    );
    lines.push(
      '; Read-only inside writable folders: .garuda, .git itself, git hooks and config; and the',
      '; folders above hidden paths, which must not be renamed (they would take them along).',
    );
    lines.push(`(deny file-write*\n  ${denied.join('\n  ')})`);
  }

  if (plan.serverHome !== undefined) {
    // Before the hidden paths, which still win inside the own home.
    lines.push("; Other servers' homes: hidden; this server's own: readable and writable again.");
    lines.push(
      `(deny file-read* file-write* (subpath ${writer.expr(plan.serverHome.homesDir, 'serverHome.homesDir')}))`,
    );
    lines.push(
      `(allow file-read* file-write* (subpath ${writer.expr(plan.serverHome.dir, 'serverHome.dir')}))`,
    );
  }

  if (plan.hidden.length > 0) {
    const hidden = plan.hidden.map((entry) => `(subpath ${writer.expr(entry.path, 'home')})`);
    lines.push('; Hidden, last so it wins everywhere: Garuda home and credential files.');
    lines.push(`(deny file-read* file-write*\n  ${hidden.join('\n  ')})`);
  }

  if (plan.reveals !== undefined && plan.reveals.revealed.length > 0) {
    lines.push(...revealRules(plan.reveals, writer));
  }

  if (plan.engineSocket !== undefined) {
    const socket = writer.expr(plan.engineSocket, 'engineSocket');
    lines.push("; The container engine's socket, for its own command line only.");
    lines.push(`(allow file-read* (literal ${socket}))`);
    lines.push(`(allow network-outbound (remote unix-socket (path-literal ${socket})))`);
  }

  return { profile: `${lines.join('\n')}\n`, params: writer.params };
}

/**
 * The rules after the hidden paths for the read paths that reveal one: reading is allowed again
 * (writing is not: the deny above still holds for it), then what is hidden inside a revealed
 * folder is denied again. Rules follow the depth of their paths, consecutive ones of the same
 * kind in one rule, so the deepest path decides, as the mounts do on Linux. None of the hidden
 * paths above lies inside a revealed one (they would be nested in the folder it reveals), so
 * they can all come first.
 */
function revealRules(reveals: Reveals, writer: PathWriter): string[] {
  const groups: { reveal: boolean; filters: string[] }[] = [];
  for (const layer of hidingLayers([], reveals)) {
    const filter = layer.reveal
      ? `(${layer.revealed.isDirectory ? 'subpath' : 'literal'} ${writer.expr(layer.revealed.path, 'readPaths')})`
      : `(subpath ${writer.expr(layer.hidden.path, 'home')})`;
    const last = groups.at(-1);
    if (last?.reveal === layer.reveal) last.filters.push(filter);
    else groups.push({ reveal: layer.reveal, filters: [filter] });
  }
  const lines: string[] = [];
  for (const group of groups) {
    if (group.reveal) {
      lines.push(
        '; Revealed, read-only: hidden credential paths that the read paths name (after the',
        '; hiding, so they win; writes stay denied).',
      );
      lines.push(`(allow file-read*\n  ${group.filters.join('\n  ')})`);
    } else {
      lines.push('; Hidden again inside a revealed folder.');
      lines.push(`(deny file-read* file-write*\n  ${group.filters.join('\n  ')})`);
    }
  }
  return lines;
}
