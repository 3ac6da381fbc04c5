import {
  ConfigError,
  ConfigErrorCode,
  FileUnusableError,
  InvalidServerError,
  formatProblem,
  type LoadConfigResult,
} from '@garuda/mcp-config';
import { LockedFileError } from '@garuda/mcp-trust';
import { cliPaths, configuredNames } from '../cli-config.js';
import type { CommandContext } from '../context.js';
import { didYouMean } from '../did-you-mean.js';
import { CliError, ExitCode } from '../exit-codes.js';

/** The file `--project` chooses: the project's, else the user's. */
export function fileOf(ctx: CommandContext, project: boolean) {
  const paths = cliPaths(ctx);
  return project
    ? { file: paths.projectFile, source: 'project' as const }
    : { file: paths.userFile, source: 'user' as const };
}

/**
 * A config error as CLI output: what is wrong and exit 3 (2 for a wrong argument). Problems
 * this run has told already (the file's, before the edit) are not repeated.
 */
export function configFailure(ctx: CommandContext, error: unknown): never {
  if (FileUnusableError.isInstance(error)) {
    const fresh = error.problems.filter((p) => !ctx.shownProblems.has(formatProblem(p)));
    throw new CliError(
      `${error.file} was not changed: fix ${fresh.length === error.problems.length ? 'its problems' : 'the problems listed above'} first.` +
        fresh.map((p) => `\n  ${formatProblem(p)}`).join(''),
      ExitCode.CONFIG,
    );
  }
  if (InvalidServerError.isInstance(error)) {
    // The entry was never in the file, so its problems have no place there: messages only.
    const file = error.problems[0]?.file;
    throw new CliError(
      `Nothing was saved${file === undefined ? '' : ` to ${file}`}:` +
        error.problems.map((p) => `\n  ${p.message}`).join(''),
      ExitCode.CONFIG,
    );
  }
  // The config file's lock errors come from @garuda/mcp-trust, passed through by mcp-config.
  if (ConfigError.isInstance(error) || LockedFileError.isInstance(error)) {
    throw new CliError(
      error.message,
      error.code === ConfigErrorCode.INVALID_ARGUMENT ? ExitCode.USAGE : ExitCode.CONFIG,
    );
  }
  throw error;
}

/**
 * Exit 2 for a name the chosen file does not have: where it is instead (the other file), or
 * the names of that file that are close to it.
 */
export function notInFile(
  ctx: CommandContext,
  config: LoadConfigResult,
  name: string,
  project: boolean,
): CliError {
  const { file } = fileOf(ctx, project);
  const other = fileOf(ctx, !project).file;
  const label = project ? 'the project file' : 'your file';
  if (configuredNames(config, other).includes(name)) {
    return new CliError(
      `There is no MCP server ${JSON.stringify(name)} in ${label} (${file}); it is in ` +
        `${project ? 'your file' : 'the project file'} (${other}): ` +
        `${project ? 'leave out --project' : 'add --project'}.`,
      ExitCode.USAGE,
    );
  }
  return new CliError(
    `There is no MCP server ${JSON.stringify(name)} in ${label} (${file}).` +
      `${didYouMean(name, configuredNames(config))} (garuda-mcp list shows every server and its file.)`,
    ExitCode.USAGE,
  );
}
