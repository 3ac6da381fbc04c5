import { brand, CodedError, errnoCode } from '@garuda/internal';
import type { ConfigProblem } from './config-problem.js';
import type { ImportNote } from './import-types.js';
import { quotePath, quoteText, shortText } from './quote-text.js';

/**
 * The stable `code` of every {@link ConfigError}. Compare against these instead of messages or
 * class names.
 *
 * The cross-process lock of a file being edited is `@garuda/mcp-trust`'s: its errors
 * (`LockedFileError`, codes `TRUST_LOCK_TIMEOUT`, `TRUST_LOCK_FAILED`, `TRUST_LOCK_COMPROMISED`) come out of the
 * edits as they are.
 *
 * @example
 * ```ts
 * try {
 *   await removeServer({ file, name: 'github' });
 * } catch (e) {
 *   if (ConfigError.isInstance(e) && e.code === ConfigErrorCode.NOT_FOUND) ui.show('nothing to remove');
 * }
 * ```
 */
export const ConfigErrorCode = Object.freeze({
  /** A function was called with arguments of the wrong shape (a programming error). */
  INVALID_ARGUMENT: 'CONFIG_INVALID_ARGUMENT',
  /** `addServer` was given a name or definition that `loadConfig` would not accept. */
  INVALID_SERVER: 'CONFIG_INVALID_SERVER',
  /** The file to edit cannot be read, is too large, or does not parse; it was left untouched. */
  FILE_UNUSABLE: 'CONFIG_FILE_UNUSABLE',
  /** `addServer` found a server of that name and `replace: true` was not given. */
  SERVER_EXISTS: 'CONFIG_SERVER_EXISTS',
  /** `removeServer` / `setServerEnabled` found no server of that name (or no file). */
  NOT_FOUND: 'CONFIG_NOT_FOUND',
  /** The file or its folder could not be written. */
  WRITE_FAILED: 'CONFIG_WRITE_FAILED',
  /** A host's own config file cannot take the gateway's entry safely; it was left untouched. */
  HOST_FILE_UNUSABLE: 'CONFIG_HOST_FILE_UNUSABLE',
  /** Moving a host's servers behind the gateway failed; what it had done was undone. */
  HOST_MOVE_FAILED: 'CONFIG_HOST_MOVE_FAILED',
} as const);

/** One of the values of {@link ConfigErrorCode}. */
export type ConfigErrorCode = (typeof ConfigErrorCode)[keyof typeof ConfigErrorCode];

const SCOPE = 'garuda.mcp-config';

/**
 * Base class of every error this package throws, and the class of those that carry no more than
 * their code (`CONFIG_INVALID_ARGUMENT`, `CONFIG_WRITE_FAILED`). Reading a configuration never throws for
 * anything a file contains (that is reported as a {@link ConfigProblem}); these errors come from
 * wrong arguments and from `addServer` / `removeServer` / `setServerEnabled`.
 *
 * @example
 * ```ts
 * try {
 *   await addServer({ file, name: 'github', def: { command: 'github-mcp-server' }, source: 'user' });
 * } catch (e) {
 *   if (ConfigError.isInstance(e)) ui.error(e.code, e.message);
 * }
 * ```
 */
export class ConfigError extends CodedError<ConfigErrorCode> {
  /**
   * Whether `value` is a {@link ConfigError} (any subclass), also from another copy of this
   * package. A plain function: `errors.filter(ConfigError.isInstance)` works.
   *
   * @param value - Anything, typically a caught error.
   * @returns `true` for errors of this package.
   */
  static readonly isInstance = brand(this, SCOPE, 'ConfigError');
}

/**
 * `addServer` was given a server name or definition that `loadConfig` would not accept
 * (code `CONFIG_INVALID_SERVER`). `problems` holds the same {@link ConfigProblem}s, with the same
 * messages, that `loadConfig` would report for that entry. Nothing was written.
 *
 * @example
 * ```ts
 * catch (e) {
 *   if (InvalidServerError.isInstance(e)) for (const p of e.problems) ui.error(p.message);
 * }
 * ```
 */
export class InvalidServerError extends ConfigError {
  /** Whether `value` is an {@link InvalidServerError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'InvalidServerError');

  /** What is wrong, one problem per field. */
  readonly problems: readonly ConfigProblem[];

  /**
   * @param file - The file that was to be edited.
   * @param problems - At least one problem.
   */
  constructor(file: string, problems: readonly ConfigProblem[]) {
    super(
      ConfigErrorCode.INVALID_SERVER,
      `not saved to ${quotePath(file)}: ${problems.map((p) => p.message).join('; ')}`,
    );
    this.problems = problems;
  }
}

/**
 * The file to edit cannot be used (code `CONFIG_FILE_UNUSABLE`): it cannot be read, is larger than
 * the size limit, is not UTF-8, does not parse, or its shape leaves the edit ambiguous. The
 * file was left exactly as it was; `problems` says what to fix first.
 *
 * @example
 * ```ts
 * catch (e) {
 *   if (FileUnusableError.isInstance(e)) ui.error(e.problems.map(formatProblem).join('\n'));
 * }
 * ```
 */
export class FileUnusableError extends ConfigError {
  /** Whether `value` is a {@link FileUnusableError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'FileUnusableError');

  /** The file that was not changed. */
  readonly file: string;
  /** Why it cannot be edited (the same problems `loadConfig` reports for it). */
  readonly problems: readonly ConfigProblem[];

  /**
   * @param file - The file that was not changed.
   * @param problems - At least one problem.
   * @param cause - The underlying error, if any.
   */
  constructor(file: string, problems: readonly ConfigProblem[], cause?: unknown) {
    super(
      ConfigErrorCode.FILE_UNUSABLE,
      `${quotePath(file)} was not changed: ${problems.map((p) => p.message).join('; ')}`,
      { cause },
    );
    this.file = file;
    this.problems = problems;
  }
}

/**
 * The file has, or lacks, the server an edit names: `addServer` found one of that name and
 * `replace: true` was not given (code `CONFIG_SERVER_EXISTS`), or `removeServer` / `setServerEnabled`
 * found none, or no file (code `CONFIG_NOT_FOUND`). Nothing was written.
 *
 * @example
 * ```ts
 * catch (e) {
 *   if (ServerEntryError.isInstance(e) && e.code === ConfigErrorCode.SERVER_EXISTS) {
 *     await addServer({ ...options, replace: true });
 *   }
 * }
 * ```
 */
export class ServerEntryError extends ConfigError {
  /** Whether `value` is a {@link ServerEntryError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'ServerEntryError');

  declare readonly code: typeof ConfigErrorCode.SERVER_EXISTS | typeof ConfigErrorCode.NOT_FOUND;
  /** The server name that was asked for, cleaned to one line. */
  readonly server: string;

  /**
   * @param code - `CONFIG_SERVER_EXISTS` or `CONFIG_NOT_FOUND`.
   * @param file - The file that was searched.
   * @param server - The name that was asked for.
   */
  constructor(
    code: typeof ConfigErrorCode.SERVER_EXISTS | typeof ConfigErrorCode.NOT_FOUND,
    file: string,
    server: string,
  ) {
    super(
      code,
      code === ConfigErrorCode.SERVER_EXISTS
        ? `server ${quoteText(server)} is already in ${quotePath(file)}: ` +
            'pass replace: true to overwrite it, or choose another name'
        : `there is no server ${quoteText(server)} in ${quotePath(file)}: check the name ` +
            '(the status list shows each server with its file)',
    );
    this.server = shortText(server);
  }
}

/**
 * Why {@link HostFileError} was thrown. With code `CONFIG_HOST_FILE_UNUSABLE` (nothing was written):
 * `not-a-file` (a FIFO, device or folder at the path), `too-large` (over
 * `MAX_IMPORT_FILE_BYTES`), `not-utf8`, `unreadable`, `unparsable` (`problem` says where),
 * `not-an-object` (the top level), `list-not-an-object` (the server list), `entry-refused` (the
 * JSON edit could not place the entry), `entry-not-held` (the edited text would not read back
 * holding the entry). With code `CONFIG_HOST_MOVE_FAILED`: `cannot-rewrite` (the servers cannot be taken
 * out of the file safely; nothing was done), `import-failed` (`failed` says which and why),
 * `changed` (the host's file changed meanwhile), `backup-failed`, `write-failed` (the host's file
 * could not be replaced; `backup` stays). With code `CONFIG_WRITE_FAILED`: `write-failed`.
 */
export type HostFileErrorReason =
  | 'not-a-file'
  | 'too-large'
  | 'not-utf8'
  | 'unreadable'
  | 'unparsable'
  | 'not-an-object'
  | 'list-not-an-object'
  | 'entry-refused'
  | 'entry-not-held'
  | 'cannot-rewrite'
  | 'import-failed'
  | 'changed'
  | 'backup-failed'
  | 'write-failed';

/** The details of a {@link HostFileError}: only the fields its `reason` has are set. */
export interface HostFileErrorDetails {
  /** `unparsable`: the parse problem, with its line and column when known. */
  readonly problem?: ImportNote;
  /** `import-failed`: each server that could not be written to Garuda's file, and why. */
  readonly failed?: readonly { readonly name: string; readonly reason: string }[];
  /** `CONFIG_HOST_MOVE_FAILED`: the servers written to Garuda's file and then removed again. */
  readonly undone?: readonly string[];
  /** `CONFIG_HOST_MOVE_FAILED`: the servers written to Garuda's file that could not be removed again. */
  readonly left?: readonly string[];
  /** `write-failed` during a move: the backup of the host's file, which stays. */
  readonly backup?: string;
}

/**
 * A host's own config file could not be edited (codes `CONFIG_HOST_FILE_UNUSABLE`, `CONFIG_HOST_MOVE_FAILED`,
 * `CONFIG_WRITE_FAILED`; `reason` says why). The host's file is as it was, and a failed move undid what
 * it had written to Garuda's file (`left` names what it could not).
 *
 * @example
 * ```ts
 * catch (e) {
 *   if (HostFileError.isInstance(e) && e.reason === 'unparsable') ui.error(e.problem?.message);
 * }
 * ```
 */
export class HostFileError extends ConfigError implements HostFileErrorDetails {
  /** Whether `value` is a {@link HostFileError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'HostFileError');

  declare readonly code:
    | typeof ConfigErrorCode.HOST_FILE_UNUSABLE
    | typeof ConfigErrorCode.HOST_MOVE_FAILED
    | typeof ConfigErrorCode.WRITE_FAILED;
  /** The host's file. */
  readonly file: string;
  readonly reason: HostFileErrorReason;
  declare readonly problem?: ImportNote;
  declare readonly failed?: readonly { readonly name: string; readonly reason: string }[];
  declare readonly undone?: readonly string[];
  declare readonly left?: readonly string[];
  declare readonly backup?: string;

  /**
   * @param code - The error's code.
   * @param file - The host's file.
   * @param reason - Why.
   * @param details - The fields of that reason.
   * @param cause - The underlying error, if any.
   */
  constructor(
    code:
      | typeof ConfigErrorCode.HOST_FILE_UNUSABLE
      | typeof ConfigErrorCode.HOST_MOVE_FAILED
      | typeof ConfigErrorCode.WRITE_FAILED,
    file: string,
    reason: HostFileErrorReason,
    details: HostFileErrorDetails = {},
    cause?: unknown,
  ) {
    super(
      code,
      `${quotePath(file)} ${code === ConfigErrorCode.HOST_MOVE_FAILED ? 'could not give up its servers' : 'was not changed'}: ${reason}` +
        (details.problem === undefined ? '' : ` (${shortText(details.problem.message)})`),
      { cause },
    );
    this.file = file;
    this.reason = reason;
    Object.assign(this, details);
  }
}

/** A function was called with arguments of the wrong shape (code `CONFIG_INVALID_ARGUMENT`). @internal */
export function invalidArgument(message: string): ConfigError {
  return new ConfigError(ConfigErrorCode.INVALID_ARGUMENT, message);
}

/**
 * `file` or its folder could not be written (code `CONFIG_WRITE_FAILED`). The write is atomic (a
 * temporary file renamed over the old one), so the old file is still intact. @internal
 */
export function writeFailed(file: string, cause: unknown): ConfigError {
  return new ConfigError(
    ConfigErrorCode.WRITE_FAILED,
    `could not write ${quotePath(file)} (${errnoCode(cause) ?? 'unknown error'}): ` +
      'the old file is unchanged; check the permissions of the file and its folder',
    { cause },
  );
}
