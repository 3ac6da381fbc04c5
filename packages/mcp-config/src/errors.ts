import type { ConfigProblem } from './config-problem.js';
import { quoteText, shortText } from './quote-text.js';

/**
 * The stable `code` of every {@link ConfigError}. Compare against these instead of messages or
 * class names.
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
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** `addServer` was given a name or definition that `loadConfig` would not accept. */
  INVALID_SERVER: 'INVALID_SERVER',
  /** The file to edit cannot be read, is too large, or does not parse; it was left untouched. */
  FILE_UNUSABLE: 'FILE_UNUSABLE',
  /** `addServer` found a server of that name and `replace: true` was not given. */
  SERVER_EXISTS: 'SERVER_EXISTS',
  /** `removeServer` found no server of that name (or no file). */
  NOT_FOUND: 'NOT_FOUND',
  /** The file or its folder could not be written. */
  WRITE_FAILED: 'WRITE_FAILED',
} as const);

/** One of the values of {@link ConfigErrorCode}. */
export type ConfigErrorCode = (typeof ConfigErrorCode)[keyof typeof ConfigErrorCode];

const MARKERS = {
  ConfigError: Symbol.for('garuda.mcp-config.ConfigError'),
  InvalidArgumentError: Symbol.for('garuda.mcp-config.InvalidArgumentError'),
  InvalidServerError: Symbol.for('garuda.mcp-config.InvalidServerError'),
  FileUnusableError: Symbol.for('garuda.mcp-config.FileUnusableError'),
  ServerExistsError: Symbol.for('garuda.mcp-config.ServerExistsError'),
  ServerNotFoundError: Symbol.for('garuda.mcp-config.ServerNotFoundError'),
  WriteFailedError: Symbol.for('garuda.mcp-config.WriteFailedError'),
} as const;

// Markers instead of `instanceof`, so an error made by another copy of this package (two
// versions in one node_modules tree) is still recognised.
function mark(target: object, marker: symbol): void {
  Object.defineProperty(target, marker, { value: true, enumerable: false });
}

function hasMarker(value: unknown, marker: symbol): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true
  );
}

/** A file path for a message: JSON-quoted, so control characters in it are escaped. */
export function quotePath(file: string): string {
  return JSON.stringify(file);
}

/** The `code` of a Node.js system error (`EACCES`, `ENOENT`…), if it has one. @internal */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,32}$/.test(code) ? code : undefined;
}

/**
 * Base class of every error this package throws. Reading a configuration never throws for
 * anything a file contains (that is reported as a {@link ConfigProblem}); these errors come from
 * wrong arguments and from `addServer` / `removeServer`.
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
export class ConfigError extends Error {
  /** Stable machine-readable reason; one of {@link ConfigErrorCode}. */
  readonly code: ConfigErrorCode;

  /**
   * @param code - One of {@link ConfigErrorCode}.
   * @param message - What happened and what to do about it.
   * @param options - `cause`: the underlying error, kept as `error.cause`.
   */
  constructor(code: ConfigErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ConfigError';
    this.code = code;
    mark(this, MARKERS.ConfigError);
  }

  /**
   * Whether `value` is a {@link ConfigError} (any subclass), also from another copy of this
   * package.
   *
   * @param value - Anything, typically a caught error.
   * @returns `true` for errors of this package.
   * @example
   * ```ts
   * if (ConfigError.isInstance(e)) ui.show(e.code);
   * ```
   */
  static isInstance(value: unknown): value is ConfigError {
    return hasMarker(value, MARKERS.ConfigError);
  }
}

/**
 * A function was called with arguments of the wrong shape (code `INVALID_ARGUMENT`): a
 * programming error, never caused by the content of a file.
 *
 * @example
 * ```ts
 * try {
 *   defaultPaths({ home: '', root: '/repo' });
 * } catch (e) {
 *   if (InvalidArgumentError.isInstance(e)) ui.error(e.message);
 * }
 * ```
 */
export class InvalidArgumentError extends ConfigError {
  /**
   * @param message - Which argument is wrong and what is expected.
   */
  constructor(message: string) {
    super(ConfigErrorCode.INVALID_ARGUMENT, message);
    this.name = 'InvalidArgumentError';
    mark(this, MARKERS.InvalidArgumentError);
  }

  /**
   * Whether `value` is an {@link InvalidArgumentError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for an argument error.
   * @example
   * ```ts
   * InvalidArgumentError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is InvalidArgumentError {
    return hasMarker(value, MARKERS.InvalidArgumentError);
  }
}

/**
 * `addServer` was given a server name or definition that `loadConfig` would not accept
 * (code `INVALID_SERVER`). `problems` holds the same {@link ConfigProblem}s, with the same
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
    this.name = 'InvalidServerError';
    this.problems = problems;
    mark(this, MARKERS.InvalidServerError);
  }

  /**
   * Whether `value` is an {@link InvalidServerError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for a refused server definition.
   * @example
   * ```ts
   * InvalidServerError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is InvalidServerError {
    return hasMarker(value, MARKERS.InvalidServerError);
  }
}

/**
 * The file to edit cannot be used (code `FILE_UNUSABLE`): it cannot be read, is larger than
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
    this.name = 'FileUnusableError';
    this.file = file;
    this.problems = problems;
    mark(this, MARKERS.FileUnusableError);
  }

  /**
   * Whether `value` is a {@link FileUnusableError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for a file that could not be edited.
   * @example
   * ```ts
   * FileUnusableError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is FileUnusableError {
    return hasMarker(value, MARKERS.FileUnusableError);
  }
}

/**
 * `addServer` found a server with that name in the file and `replace: true` was not given
 * (code `SERVER_EXISTS`). Nothing was written.
 *
 * @example
 * ```ts
 * catch (e) {
 *   if (ServerExistsError.isInstance(e)) await addServer({ ...options, replace: true });
 * }
 * ```
 */
export class ServerExistsError extends ConfigError {
  /** The server name that is already taken. */
  readonly server: string;

  /**
   * @param file - The file that holds the server.
   * @param server - The (valid) server name.
   */
  constructor(file: string, server: string) {
    super(
      ConfigErrorCode.SERVER_EXISTS,
      `server ${quoteText(server)} is already in ${quotePath(file)}: ` +
        'pass replace: true to overwrite it, or choose another name',
    );
    this.name = 'ServerExistsError';
    this.server = server;
    mark(this, MARKERS.ServerExistsError);
  }

  /**
   * Whether `value` is a {@link ServerExistsError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for a name that is already taken.
   * @example
   * ```ts
   * ServerExistsError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is ServerExistsError {
    return hasMarker(value, MARKERS.ServerExistsError);
  }
}

/**
 * `removeServer` found no server of that name, or the file does not exist (code `NOT_FOUND`).
 * Nothing was written.
 *
 * @example
 * ```ts
 * catch (e) {
 *   if (ServerNotFoundError.isInstance(e)) ui.error(e.message);
 * }
 * ```
 */
export class ServerNotFoundError extends ConfigError {
  /** The server name that was not found, cleaned to one line. */
  readonly server: string;

  /**
   * @param file - The file that was searched.
   * @param server - The name that was asked for.
   */
  constructor(file: string, server: string) {
    super(
      ConfigErrorCode.NOT_FOUND,
      `there is no server ${quoteText(server)} in ${quotePath(file)}: check the name ` +
        '(the status list shows each server with its file)',
    );
    this.name = 'ServerNotFoundError';
    this.server = shortText(server);
    mark(this, MARKERS.ServerNotFoundError);
  }

  /**
   * Whether `value` is a {@link ServerNotFoundError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for a missing server.
   * @example
   * ```ts
   * ServerNotFoundError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is ServerNotFoundError {
    return hasMarker(value, MARKERS.ServerNotFoundError);
  }
}

/**
 * The file or its folder could not be written (code `WRITE_FAILED`). The write is atomic
 * (a temporary file renamed over the old one), so the old file is still intact.
 *
 * @example
 * ```ts
 * catch (e) {
 *   if (WriteFailedError.isInstance(e)) ui.error(e.message);
 * }
 * ```
 */
export class WriteFailedError extends ConfigError {
  /**
   * @param file - The file that could not be written.
   * @param cause - The underlying error.
   */
  constructor(file: string, cause: unknown) {
    super(
      ConfigErrorCode.WRITE_FAILED,
      `could not write ${quotePath(file)} (${errnoCode(cause) ?? 'unknown error'}): ` +
        'the old file is unchanged; check the permissions of the file and its folder',
      { cause },
    );
    this.name = 'WriteFailedError';
    mark(this, MARKERS.WriteFailedError);
  }

  /**
   * Whether `value` is a {@link WriteFailedError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for a failed write.
   * @example
   * ```ts
   * WriteFailedError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is WriteFailedError {
    return hasMarker(value, MARKERS.WriteFailedError);
  }
}
