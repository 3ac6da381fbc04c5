import { ConfigProblemCode } from './config-problem.js';
import { setServerFieldInText } from './config-text-edit.js';
import { checkEditOptions, editServerEntry } from './edit-config-file.js';
import { FileUnusableError, invalidArgument } from './errors.js';
import type { ParsedConfig, ParsedServer } from './parse-config-text.js';
import { quoteText, shortText } from './quote-text.js';

/** Options of {@link setServerEnabled}. */
export interface SetServerEnabledOptions {
  /** The file to edit. */
  readonly file: string;
  /** The server, exactly as written in the file (also a name `loadConfig` refused). */
  readonly name: string;
  /** `false` to disable the server (it is listed, not started), `true` to enable it again. */
  readonly enabled: boolean;
  /** How long to wait for another process's lock on the file (default 10 000 ms). */
  readonly lockTimeoutMs?: number;
}

/** What {@link setServerEnabled} did. */
export interface SetServerEnabledResult {
  readonly file: string;
  readonly name: string;
  /** The server's `enabled` value now. */
  readonly enabled: boolean;
  /**
   * Whether the file was written. `false` when the server already was so: `"enabled"` was
   * already that value, or, for `enabled: true`, left out (it defaults to true).
   */
  readonly changed: boolean;
}

/** The entry without `enabled`, for checking that nothing else of it changed. */
function otherFields(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const rest: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  delete rest.enabled;
  return JSON.stringify(rest);
}

function entryProblem(
  file: string,
  parsed: ParsedConfig,
  server: ParsedServer,
): FileUnusableError | undefined {
  const name = shortText(server.name);
  if (server.node.type !== 'object') {
    return new FileUnusableError(file, [
      {
        code: ConfigProblemCode.NOT_AN_OBJECT,
        file,
        server: name,
        ...parsed.position(server.node.offset),
        message:
          `server ${quoteText(server.name)} is not an object, so it has no "enabled" field to ` +
          'set: fix the entry or remove it',
      },
    ]);
  }
  const twice = server.duplicates.find((d) => d.path.length === 1 && d.path[0] === 'enabled');
  if (twice !== undefined) {
    const first = parsed.position(twice.first);
    const again = parsed.position(twice.again);
    return new FileUnusableError(file, [
      {
        code: ConfigProblemCode.DUPLICATE_KEY,
        file,
        server: name,
        field: 'enabled',
        ...again,
        message:
          `server ${quoteText(server.name)}: "enabled" is written twice (lines ${first.line} and ` +
          `${again.line}): keep one`,
      },
    ]);
  }
  return undefined;
}

/**
 * Enables or disables one server in a configuration file by setting its `"enabled"` field. A
 * disabled server is still listed (`loadConfig` returns it with `def.enabled === false`) but
 * not started. Only that value changes, or, when the entry has no `"enabled"` yet, the field
 * is added after the entry's last field: other fields of the entry, other servers, key order,
 * indentation and line ends stay byte for byte. Nothing is written when the server already is
 * so. The name may be one `loadConfig` refused, so a broken entry can be disabled too (it still
 * reports its problems). The file is read under its cross-process lock and written atomically,
 * keeping its mode.
 *
 * @param options - `file`, `name`, `enabled`, and optionally `lockTimeoutMs`.
 * @returns What was done; `changed` says whether the file was written.
 * @throws {@link ServerEntryError} `CONFIG_NOT_FOUND` when the file or the server does not exist.
 * @throws {@link FileUnusableError} when the file cannot be read, is over 1 MiB, is not UTF-8,
 *   does not parse, holds the name twice, or the entry is not an object or has `"enabled"`
 *   twice; it is left untouched.
 * @throws `LockedFileError` of `@garuda/mcp-trust` (`TRUST_LOCK_TIMEOUT`, `TRUST_LOCK_FAILED`,
 *   `TRUST_LOCK_COMPROMISED`) when the lock cannot be taken or is lost, passed through.
 * @throws {@link ConfigError} `CONFIG_WRITE_FAILED` when the file cannot be written.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` for options of the wrong shape.
 * @example
 * ```ts
 * await setServerEnabled({ file: paths.userFile, name: 'github', enabled: false });
 * ```
 */
export async function setServerEnabled(
  options: SetServerEnabledOptions,
): Promise<SetServerEnabledResult> {
  if (typeof options !== 'object' || options === null) {
    throw invalidArgument('setServerEnabled: pass { file, name, enabled }');
  }
  const { file, lockTimeoutMs } = checkEditOptions('setServerEnabled', options);
  const { name, enabled } = options;
  if (typeof name !== 'string' || name === '') {
    throw invalidArgument('setServerEnabled: name must be a non-empty string');
  }
  if (typeof enabled !== 'boolean') {
    throw invalidArgument('setServerEnabled: enabled must be true or false');
  }
  return editServerEntry<SetServerEnabledResult>(
    { file, name, lockTimeoutMs },
    ({ text, parsed, server }) => {
      const refused = entryProblem(file, parsed, server);
      if (refused !== undefined) throw refused;
      const written = (server.value as Record<string, unknown>).enabled;
      const result = { file, name, enabled };
      if (written === enabled || (written === undefined && enabled)) {
        return { text: undefined, result: { ...result, changed: false } };
      }
      const before = otherFields(server.value);
      return {
        text: setServerFieldInText(text, server, 'enabled', enabled),
        verify: (after) => {
          const changed = after.servers.find((s) => s.name === name);
          return (
            changed !== undefined &&
            (changed.value as Record<string, unknown>).enabled === enabled &&
            otherFields(changed.value) === before &&
            after.names.length === parsed.names.length &&
            parsed.names.every((n) => after.names.includes(n))
          );
        },
        result: { ...result, changed: true },
      };
    },
  );
}
