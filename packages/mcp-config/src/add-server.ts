import { type ConfigProblem } from './config-problem.js';
import { newConfigText, setServerInText } from './config-text-edit.js';
import { checkEditOptions, editConfigFile } from './edit-config-file.js';
import {
  ConfigErrorCode,
  FileUnusableError,
  invalidArgument,
  InvalidServerError,
  ServerEntryError,
} from './errors.js';
import { shortText } from './quote-text.js';
import { replaceEntry, type DroppedField } from './replace-entry.js';
import type { ServerDef, ServerEntry, ServerSource } from './server-types.js';
import { validateServer } from './validate-server.js';

/** Options of {@link addServer}. */
export interface AddServerOptions {
  /** The file to edit: the user's `<home>/mcp.json` or a project's `<root>/.garuda/mcp.json`. */
  readonly file: string;
  /** The server name, `^[a-z0-9][a-z0-9_-]{0,31}$`. */
  readonly name: string;
  /** The entry as it should be written (left-out fields get their defaults when loaded). */
  readonly def: ServerEntry;
  /**
   * Which kind of file this is. It decides the URL rules (http on localhost only for `'user'`)
   * and the permissions of a new file (`'user'`: folder 0700, file 0600, since it may hold
   * literal tokens; `'project'`: the defaults).
   */
  readonly source: ServerSource;
  /** Overwrite a server of the same name. Without it, an existing name is an error. */
  readonly replace?: boolean;
  /**
   * With `replace: true`: keep each field of the old entry that `def` does not set, when the
   * new entry's kind has that field and its old value is valid (a hand-written `env`,
   * `writePaths`, `cwd`, `enabled`, `timeoutMs`, `oauth`…). What the server runs or where it
   * connects (`command` and `args`, or `url`, and `type`) always comes from `def`. The result
   * lists what was kept and what was dropped. Default `false`: `def` is written as it is.
   */
  readonly keepOtherFields?: boolean;
  /** How long to wait for another process's lock on the file (default 10 000 ms). */
  readonly lockTimeoutMs?: number;
}

/** What {@link addServer} did. */
export interface AddServerResult {
  readonly file: string;
  readonly name: string;
  /** `'added'` for a new name, `'replaced'` when `replace: true` overwrote one. */
  readonly action: 'added' | 'replaced';
  /** Whether the file did not exist and was created. */
  readonly createdFile: boolean;
  /** The entry as `loadConfig` will see it, defaults applied (for `defHash`, `commandLine`). */
  readonly def: ServerDef;
  /** Fields of the replaced entry that were kept (`keepOtherFields`); empty otherwise. */
  readonly kept: readonly string[];
  /** Fields of the replaced entry that the new one does not have, and why; empty for a new name. */
  readonly dropped: readonly DroppedField[];
}

const TRUE_OR_FALSE = new Set([true, false, undefined]);

/**
 * Adds (or, with `replace: true`, replaces) one server in a configuration file.
 *
 * The name and entry are checked by the same code as `loadConfig`, so a refused entry gets the
 * same messages `loadConfig` would report. Only the server's own entry changes: other servers,
 * key order, indentation, line endings and `$schema` stay exactly as they were. The file is
 * created (with its folder) when missing. It is read under a cross-process lock
 * (`<file>.lock`) and written atomically; an existing file keeps its mode.
 *
 * With `replace: true` the old entry is overwritten by `def`; with `keepOtherFields: true` as
 * well, the old entry's other fields stay (see {@link AddServerOptions.keepOtherFields}). Either
 * way `kept` and `dropped` in the result say what became of the old entry's fields.
 *
 * Errors are thrown, never returned: nothing is written when one is thrown.
 *
 * @param options - `file`, `name`, `def`, `source`, and optionally `replace`,
 *   `keepOtherFields`, `lockTimeoutMs`.
 * @returns What was done, the definition with defaults applied, and what was kept or dropped
 *   of a replaced entry.
 * @throws {@link InvalidServerError} when the name or entry would not load (`problems` has the
 *   `loadConfig` messages).
 * @throws {@link ServerEntryError} `CONFIG_SERVER_EXISTS` when the name exists and `replace` is not `true`.
 * @throws {@link FileUnusableError} when the file cannot be read, is over 1 MiB, is not UTF-8,
 *   does not parse, or holds the name twice; it is left untouched.
 * @throws `LockedFileError` of `@garuda/mcp-trust` (`TRUST_LOCK_TIMEOUT`, `TRUST_LOCK_FAILED`,
 *   `TRUST_LOCK_COMPROMISED`) when the lock cannot be taken or is lost, passed through.
 * @throws {@link ConfigError} `CONFIG_WRITE_FAILED` when the file or its folder cannot be written.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` for options of the wrong shape.
 * @example
 * ```ts
 * await addServer({
 *   file: paths.userFile,
 *   name: 'github',
 *   def: { command: 'github-mcp-server', args: ['stdio'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' } },
 *   source: 'user',
 * });
 * ```
 */
export async function addServer(options: AddServerOptions): Promise<AddServerResult> {
  if (typeof options !== 'object' || options === null) {
    throw invalidArgument('addServer: pass { file, name, def, source }');
  }
  const { file, lockTimeoutMs } = checkEditOptions('addServer', options);
  const { name, def, source, replace, keepOtherFields } = options;
  if (typeof name !== 'string') throw invalidArgument('addServer: name must be a string');
  if (source !== 'user' && source !== 'project') {
    throw invalidArgument('addServer: source must be "user" or "project"');
  }
  if (!TRUE_OR_FALSE.has(replace)) {
    throw invalidArgument('addServer: replace must be true, false or left out');
  }
  if (!TRUE_OR_FALSE.has(keepOtherFields)) {
    throw invalidArgument('addServer: keepOtherFields must be true, false or left out');
  }

  // What is checked, and then written, is a plain JSON copy: no getters, no prototypes, nothing
  // that could read differently the second time.
  let entry: unknown;
  try {
    entry = JSON.parse(JSON.stringify(def)) as unknown;
  } catch (error) {
    throw invalidArgument(
      `addServer: def must be plain JSON data (${error instanceof Error ? error.name : 'not serialisable'})`,
    );
  }
  const validated = checked(file, name, entry, source);

  return editConfigFile<AddServerResult>(
    {
      file,
      lockTimeoutMs,
      createFolder: { mode: source === 'user' ? 0o700 : undefined },
      newFileMode: source === 'user' ? 0o600 : undefined,
    },
    (current) => {
      if (!current.exists) {
        return {
          text: newConfigText(name, entry),
          result: {
            file,
            name,
            action: 'added',
            createdFile: true,
            def: validated,
            kept: [],
            dropped: [],
          },
        };
      }
      const { parsed, text } = current;
      if (parsed.duplicateNames.includes(name)) {
        throw new FileUnusableError(
          file,
          parsed.problems.filter((p) => p.server === name),
        );
      }
      const old = parsed.servers.find((s) => s.name === name);
      if (old !== undefined && replace !== true)
        throw new ServerEntryError(ConfigErrorCode.SERVER_EXISTS, file, name);
      const record = entry as Record<string, unknown>;
      // The old entry is read here, under the lock, so a field another process just wrote is
      // kept (or reported) too.
      const replacement =
        old === undefined
          ? { value: record, kept: [], dropped: [] }
          : replaceEntry(name, record, old.value, source, keepOtherFields === true);
      const written = replacement.value;
      const def = written === record ? validated : checked(file, name, written, source);
      const others = parsed.names.filter((n) => n !== name);
      return {
        text: setServerInText(text, parsed, name, written),
        verify: (after) =>
          JSON.stringify(after.servers.find((s) => s.name === name)?.value) ===
            JSON.stringify(written) && others.every((n) => after.names.includes(n)),
        result: {
          file,
          name,
          action: old === undefined ? 'added' : 'replaced',
          createdFile: false,
          def,
          kept: replacement.kept,
          dropped: replacement.dropped,
        },
      };
    },
  );
}

/** `entry` checked as `loadConfig` would; {@link InvalidServerError} with its problems if not. */
function checked(file: string, name: string, entry: unknown, source: ServerSource): ServerDef {
  const { def, issues } = validateServer(name, entry, source);
  if (def === undefined || issues.length > 0) {
    const problems: ConfigProblem[] = issues.map((issue) => ({
      code: issue.code,
      file,
      server: shortText(name),
      ...(issue.field === undefined ? {} : { field: issue.field }),
      message: issue.message,
    }));
    throw new InvalidServerError(file, problems);
  }
  return def;
}
