// What a server meets in each OS sandbox, for the tests that run servers in the real one
// (manager, CLI, interop): one table, so that those tests assert bubblewrap's exact outcome on
// Linux and Seatbelt's on macOS. bubblewrap hides and protects with mounts: a write outside the
// writable folders meets a read-only file system, a file in a hidden folder is not there (the
// folder is empty inside). Seatbelt refuses by path rule: EPERM, or EACCES where macOS checks
// the file's own permissions first (what @garuda/mcp-transport's own sandbox tests accept).
import { expect } from 'vitest';

/** Node's words for each code, as its error messages give them (`EROFS: read-only file system`). */
const WORDS = {
  EROFS: 'read-only file system',
  ENOENT: 'no such file or directory',
  EPERM: 'operation not permitted',
  EACCES: 'permission denied',
} as const;

/** An error code a sandbox gives. */
export type SandboxErrorCode = keyof typeof WORDS;

/** One outcome: the error a server gets, as its code and as Node's message. */
export interface SandboxRefusal {
  /** The codes it may be: one under bubblewrap (`['EROFS']`), two under Seatbelt. */
  readonly codes: readonly SandboxErrorCode[];
  /** For `toEqual` and `toMatchObject`: the code itself when there is one, else a matcher. */
  readonly code: unknown;
  /** A regular expression source for the code alone: `EROFS`, `(?:EPERM|EACCES)`. */
  readonly codePattern: string;
  /** A regular expression source for the start of Node's message: `EROFS: read-only file system`. */
  readonly pattern: string;
  /**
   * Node's message for `syscall` on `file`, for `toEqual`: the string itself when there is one
   * code (`EROFS: read-only file system, open '/x'`), else a matcher of the whole message.
   */
  message(syscall: string, file: string): unknown;
  /** A regular expression source for that message (`file` taken literally), inside a longer text. */
  messagePattern(syscall: string, file: string): string;
}

/** What each sandbox gives, in Node's terms. */
export interface SandboxOutcomes {
  /** The sandbox as the manager and the CLI name it (`sandboxText`): `bubblewrap`, `seatbelt`. */
  readonly name: 'bubblewrap' | 'seatbelt';
  /**
   * Writing outside the writable folders, into a protected one (`.garuda`, `.git/hooks`) or into
   * a credential path shown read-only.
   */
  readonly readOnly: SandboxRefusal;
  /** Reading a file inside a hidden folder (bubblewrap: the folder is empty inside). */
  readonly inHidden: SandboxRefusal;
  /**
   * Whether each server gets a `/tmp` of its own: bubblewrap's is a fresh empty folder (a server
   * installed under the host's `/tmp` cannot be seen); macOS's `/tmp` and temp folders are the
   * machine's, seen by every server.
   */
  readonly privateTmp: boolean;
}

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function refusal(...codes: [SandboxErrorCode, ...SandboxErrorCode[]]): SandboxRefusal {
  const one = codes.length === 1 ? codes[0] : undefined;
  const either = (parts: readonly string[]) =>
    parts.length === 1 ? (parts[0] as string) : `(?:${parts.join('|')})`;
  const pattern = either(codes.map((code) => `${code}: ${WORDS[code]}`));
  const messagePattern = (syscall: string, file: string) =>
    `${pattern}, ${literal(syscall)} '${literal(file)}'`;
  return {
    codes,
    code: one ?? expect.stringMatching(new RegExp(`^${either(codes)}$`)),
    codePattern: either(codes),
    pattern,
    message: (syscall, file) =>
      one === undefined
        ? expect.stringMatching(new RegExp(`^${messagePattern(syscall, file)}$`))
        : `${one}: ${WORDS[one]}, ${syscall} '${file}'`,
    messagePattern,
  };
}

const OUTCOMES: Readonly<Record<'bwrap' | 'seatbelt', SandboxOutcomes>> = {
  bwrap: {
    name: 'bubblewrap',
    readOnly: refusal('EROFS'),
    inHidden: refusal('ENOENT'),
    privateTmp: true,
  },
  seatbelt: {
    name: 'seatbelt',
    readOnly: refusal('EPERM', 'EACCES'),
    inHidden: refusal('EPERM', 'EACCES'),
    privateTmp: false,
  },
};

/**
 * What the tests expect of this machine's sandbox.
 *
 * @param kind - The sandbox kind detectSandbox() found (`bwrap`, `seatbelt`, `none`).
 * @returns Its outcomes; bubblewrap's for `none` (the tests that use them are skipped then).
 * @example
 * const IS = sandboxOutcomes(SANDBOX.kind);
 * expect(report.writeOutside).toMatchObject({ ok: false, code: IS.readOnly.code });
 */
export function sandboxOutcomes(kind: string): SandboxOutcomes {
  return OUTCOMES[kind === 'seatbelt' ? 'seatbelt' : 'bwrap'];
}
