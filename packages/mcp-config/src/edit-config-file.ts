import { errnoCode } from '@garuda/internal';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { withFileLock } from './config-file-lock.js';
import {
  ConfigError,
  ConfigErrorCode,
  FileUnusableError,
  invalidArgument,
  ServerEntryError,
  writeFailed,
} from './errors.js';
import { parseConfigText, type ParsedConfig, type ParsedServer } from './parse-config-text.js';
import { shortText } from './quote-text.js';
import { readConfigFile } from './read-config-file.js';

/** Default for `lockTimeoutMs`. @internal */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

/** What an edit sees: the current file, when there is one. @internal */
export type CurrentFile =
  | { readonly exists: false }
  | { readonly exists: true; readonly text: string; readonly parsed: ParsedConfig };

/** @internal */
export interface EditPlan<T> {
  /** The new text, or undefined to write nothing. */
  readonly text: string | undefined;
  /** Checks the new text before it is written (a guard against a wrong edit). */
  readonly verify?: (parsed: ParsedConfig) => boolean;
  readonly result: T;
}

/** @internal */
export interface EditOptions {
  readonly file: string;
  readonly lockTimeoutMs: number;
  /** Create the folder when it is missing, with this mode (undefined: the default). */
  readonly createFolder: false | { readonly mode: number | undefined };
  /** Mode of a file that did not exist (undefined: the default). */
  readonly newFileMode: number | undefined;
}

/** Checks the options every edit shares. @internal */
export function checkEditOptions(
  fn: string,
  options: { readonly file?: unknown; readonly lockTimeoutMs?: unknown },
): { file: string; lockTimeoutMs: number } {
  const { file, lockTimeoutMs = DEFAULT_LOCK_TIMEOUT_MS } = options;
  if (typeof file !== 'string' || file === '' || file.includes('\0')) {
    throw invalidArgument(`${fn}: file must be a non-empty path`);
  }
  if (
    typeof lockTimeoutMs !== 'number' ||
    !Number.isFinite(lockTimeoutMs) ||
    lockTimeoutMs < 0 ||
    lockTimeoutMs > 600_000
  ) {
    throw invalidArgument(`${fn}: lockTimeoutMs must be a number of milliseconds (0 … 600000)`);
  }
  return { file, lockTimeoutMs };
}

/**
 * Read-modify-write of a configuration file under its cross-process lock. The file is read with
 * the same limits as `loadConfig`; one that cannot be read or does not parse is never
 * written. The new text is re-parsed and checked before an atomic write (temporary file, fsync,
 * rename); an existing file keeps its mode and its byte order mark.
 * @internal
 */
export async function editConfigFile<T>(
  options: EditOptions,
  plan: (current: CurrentFile) => EditPlan<T>,
): Promise<T> {
  const { file } = options;
  const folder = path.dirname(path.resolve(file));
  if (options.createFolder === false) {
    try {
      await stat(folder);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return plan({ exists: false }).result;
      throw writeFailed(file, error);
    }
  } else {
    try {
      await mkdir(folder, { recursive: true, mode: options.createFolder.mode });
    } catch (error) {
      throw writeFailed(file, error);
    }
  }

  // Loaded by the first edit, before the lock is taken (reading a config needs none of it).
  const { default: writeFileAtomic } = await import('write-file-atomic');
  return withFileLock(file, options.lockTimeoutMs, async (assertHeld) => {
    const read = await readConfigFile(file);
    if (read.kind === 'problem') throw new FileUnusableError(file, [read.problem], read.cause);
    let current: CurrentFile = { exists: false };
    if (read.kind === 'text') {
      const parsed = parseConfigText(file, read.text);
      if (!parsed.ok) throw new FileUnusableError(file, parsed.problems);
      current = { exists: true, text: read.text, parsed };
    }
    const { text, verify, result } = plan(current);
    if (text === undefined) return result;
    const check = parseConfigText(file, text);
    if (!check.ok || (verify !== undefined && !verify(check))) {
      // A bug here must never cost the user their file.
      throw new ConfigError(
        ConfigErrorCode.WRITE_FAILED,
        `the edit of ${JSON.stringify(file)} did not check out, so nothing was written; please report this`,
      );
    }
    assertHeld();
    const bytes = read.kind === 'text' && read.bom ? `\ufeff${text}` : text;
    try {
      await writeFileAtomic(file, bytes, {
        fsync: true,
        ...(read.kind === 'missing' && options.newFileMode !== undefined
          ? { mode: options.newFileMode }
          : {}),
      });
    } catch (error) {
      throw writeFailed(file, error);
    }
    return result;
  });
}

/** What an edit of one server's entry sees: the file's text, the parse, and that server. @internal */
export interface CurrentServer {
  readonly text: string;
  readonly parsed: ParsedConfig;
  readonly server: ParsedServer;
}

/**
 * {@link editConfigFile} of an existing file for one server that is in it, written once (the
 * folder is never created).
 *
 * @throws {@link ServerEntryError} `CONFIG_NOT_FOUND` when the file or the server does not exist.
 * @throws {@link FileUnusableError} when the file holds the name twice (with that name's problems).
 * @internal
 */
export function editServerEntry<T>(
  edit: { readonly file: string; readonly name: string; readonly lockTimeoutMs: number },
  plan: (current: CurrentServer) => EditPlan<T>,
): Promise<T> {
  const { file, name, lockTimeoutMs } = edit;
  return editConfigFile<T>(
    { file, lockTimeoutMs, createFolder: false, newFileMode: undefined },
    (current) => {
      if (!current.exists) throw new ServerEntryError(ConfigErrorCode.NOT_FOUND, file, name);
      const { parsed, text } = current;
      if (parsed.duplicateNames.includes(name)) {
        throw new FileUnusableError(
          file,
          parsed.problems.filter((p) => p.server === shortText(name)),
        );
      }
      const server = parsed.servers.find((s) => s.name === name);
      if (server === undefined) throw new ServerEntryError(ConfigErrorCode.NOT_FOUND, file, name);
      return plan({ text, parsed, server });
    },
  );
}
