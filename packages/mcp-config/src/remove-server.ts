import { removeServerFromText } from './config-text-edit.js';
import { checkEditOptions, editServerEntry } from './edit-config-file.js';
import { invalidArgument } from './errors.js';

/** Options of {@link removeServer}. */
export interface RemoveServerOptions {
  /** The file to edit. */
  readonly file: string;
  /** The server to remove, exactly as written in the file (also a name `loadConfig` refused). */
  readonly name: string;
  /** How long to wait for another process's lock on the file (default 10 000 ms). */
  readonly lockTimeoutMs?: number;
}

/** What {@link removeServer} did. */
export interface RemoveServerResult {
  readonly file: string;
  readonly name: string;
  readonly action: 'removed';
}

/**
 * Removes one server from a configuration file. Only that entry (and one comma next to it)
 * goes; every other byte stays. The name may be one that `loadConfig` refused, so a broken
 * entry can be removed too. The file is read under its cross-process lock and written
 * atomically, keeping its mode.
 *
 * @param options - `file`, `name`, and optionally `lockTimeoutMs`.
 * @returns What was done.
 * @throws {@link ServerEntryError} `CONFIG_NOT_FOUND` when the file or the server does not exist.
 * @throws {@link FileUnusableError} when the file cannot be read, is over 1 MiB, is not UTF-8,
 *   does not parse, or holds the name twice; it is left untouched.
 * @throws `LockedFileError` of `@garuda/mcp-trust` (`TRUST_LOCK_TIMEOUT`, `TRUST_LOCK_FAILED`,
 *   `TRUST_LOCK_COMPROMISED`) when the lock cannot be taken or is lost, passed through.
 * @throws {@link ConfigError} `CONFIG_WRITE_FAILED` when the file cannot be written.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` for options of the wrong shape.
 * @example
 * ```ts
 * await removeServer({ file: paths.userFile, name: 'github' });
 * ```
 */
export async function removeServer(options: RemoveServerOptions): Promise<RemoveServerResult> {
  if (typeof options !== 'object' || options === null) {
    throw invalidArgument('removeServer: pass { file, name }');
  }
  const { file, lockTimeoutMs } = checkEditOptions('removeServer', options);
  const { name } = options;
  if (typeof name !== 'string' || name === '') {
    throw invalidArgument('removeServer: name must be a non-empty string');
  }
  return editServerEntry({ file, name, lockTimeoutMs }, ({ text, parsed }) => {
    const others = parsed.names.filter((n) => n !== name);
    return {
      text: removeServerFromText(text, parsed, name),
      verify: (after) =>
        !after.names.includes(name) &&
        others.every((n) => after.names.includes(n)) &&
        after.names.length === others.length,
      result: { file, name, action: 'removed' as const },
    };
  });
}
