import type { PackageEcosystem } from './package-spec.js';

/**
 * The download caches of package runners: `npm` (npx, npm exec), `pnpm` (pnpm dlx, pnpx), `yarn`
 * (yarn dlx), `bun` (bunx, bun x), `uv` (uvx, uv tool run), `pipx` (pipx run). @internal
 */
export type RunnerCache = 'npm' | 'pnpm' | 'yarn' | 'bun' | 'uv' | 'pipx';

/** A set of words written as one space-separated string, to keep the tables below short. @internal */
export function words(list: string): ReadonlySet<string> {
  return new Set(list.split(' ').filter((word) => word !== ''));
}

/** How to find the package a runner downloads. @internal */
export interface Runner {
  readonly ecosystem: PackageEcosystem;
  /** Whose download cache it uses (see `runnerEnv`). */
  readonly cache: RunnerCache;
  /** Options whose value is the package (the first plain word is then a command, not a package). */
  readonly packageOptions: ReadonlySet<string>;
  /** Options whose value is one more package (the first plain word is still the package). */
  readonly extraPackageOptions: ReadonlySet<string>;
  /** Options whose value is a shell command line. */
  readonly scriptOptions: ReadonlySet<string>;
  /** Other options that take a value. */
  readonly valueOptions: ReadonlySet<string>;
}

const NPM_RUNNER: Runner = {
  cache: 'npm',
  ecosystem: 'npm',
  packageOptions: words('-p --package'),
  extraPackageOptions: words(''),
  scriptOptions: words('-c --call'),
  valueOptions: words(
    '--registry --cache --userconfig --node-options --shell -w --workspace --script-shell ' +
      '--prefix --loglevel',
  ),
};
const PNPM_RUNNER: Runner = {
  cache: 'pnpm',
  ecosystem: 'npm',
  packageOptions: words('--package'),
  extraPackageOptions: words(''),
  scriptOptions: words(''),
  valueOptions: words('--allow-build --reporter --dir -C --registry --config'),
};
const YARN_RUNNER: Runner = {
  cache: 'yarn',
  ecosystem: 'npm',
  packageOptions: words('-p --package'),
  extraPackageOptions: words(''),
  scriptOptions: words(''),
  valueOptions: words(''),
};
const BUN_RUNNER: Runner = {
  cache: 'bun',
  ecosystem: 'npm',
  packageOptions: words('-p --package'),
  extraPackageOptions: words(''),
  scriptOptions: words(''),
  valueOptions: words('--cwd --registry --config -c'),
};
const UV_RUNNER: Runner = {
  cache: 'uv',
  ecosystem: 'python',
  packageOptions: words('--from'),
  extraPackageOptions: words('--with -w --with-editable'),
  scriptOptions: words(''),
  valueOptions: words(
    '--with-requirements --python -p --index-url -i --extra-index-url --index --default-index ' +
      '--find-links -f --constraints -c --overrides --build-constraints -b --directory --project ' +
      '--config-file --cache-dir --color --python-preference --refresh-package ' +
      '--reinstall-package --upgrade-package -P --exclude-newer --keyring-provider ' +
      '--index-strategy --resolution --prerelease --link-mode --env-file --config-setting -C ' +
      '--no-build-isolation-package --no-binary-package --no-build-package',
  ),
};
const PIPX_RUNNER: Runner = {
  cache: 'pipx',
  ecosystem: 'python',
  packageOptions: words('--spec'),
  extraPackageOptions: words(''),
  scriptOptions: words(''),
  valueOptions: words('--python --index-url -i --pip-args --backend'),
};

/** A word's program name: its last path part, lower case, without a Windows extension. */
export function programName(word: string): string {
  const base = word.slice(Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\')) + 1);
  return base.toLowerCase().replace(/\.(?:exe|cmd|bat|com|ps1)$/, '');
}

/** Index of the first word at or after `from` that is not an option (or its value). */
export function skipOptions(
  words: readonly string[],
  from: number,
  values: ReadonlySet<string>,
): number {
  let i = from;
  while (i < words.length) {
    const word = words[i] as string;
    if (word === '--') return i + 1;
    if (!word.startsWith('-') || word === '-') return i;
    i += values.has(word) ? 2 : 1;
  }
  return i;
}

/** Runners that are programs of their own (`npx pkg`), by program name. */
const PROGRAM_RUNNERS: ReadonlyMap<string, Runner> = new Map([
  ['npx', NPM_RUNNER],
  ['pnpx', PNPM_RUNNER],
  ['bunx', BUN_RUNNER],
  ['uvx', UV_RUNNER],
]);

/** Runners behind the words of a package manager (`npm exec pkg`, `uv tool run pkg`). */
const VERB_RUNNERS: ReadonlyMap<
  string,
  { readonly runner: Runner; readonly verbs: readonly (readonly string[])[] }
> = new Map([
  ['npm', { runner: NPM_RUNNER, verbs: [['exec'], ['x']] }],
  ['pnpm', { runner: PNPM_RUNNER, verbs: [['dlx']] }],
  ['yarn', { runner: YARN_RUNNER, verbs: [['dlx']] }],
  ['bun', { runner: BUN_RUNNER, verbs: [['x']] }],
  ['pipx', { runner: PIPX_RUNNER, verbs: [['run']] }],
  [
    'uv',
    {
      runner: UV_RUNNER,
      verbs: [
        ['tool', 'run'],
        ['tool', 'uvx'],
      ],
    },
  ],
]);

/** The runner a program (and its first plain words) stands for, and where its own args start. */
export function runnerOf(
  program: string,
  rest: readonly string[],
): { label: string; runner: Runner; args: readonly string[] } | undefined {
  const direct = PROGRAM_RUNNERS.get(program);
  if (direct !== undefined) return { label: program, runner: direct, args: rest };
  const manager = VERB_RUNNERS.get(program);
  if (manager === undefined) return undefined;
  // Each plain word (after the manager's options) must go on one of its verbs, word by word.
  const said: string[] = [];
  let args = rest;
  for (;;) {
    const at = skipOptions(args, 0, manager.runner.valueOptions);
    const word = args[at]?.toLowerCase();
    if (word === undefined) return undefined;
    said.push(word);
    args = args.slice(at + 1);
    const verbs = manager.verbs.filter((verb) => said.every((w, k) => verb[k] === w));
    if (verbs.length === 0) return undefined;
    if (verbs.some((verb) => verb.length === said.length)) {
      return { label: [program, ...said].join(' '), runner: manager.runner, args };
    }
  }
}

/** What a runner's own arguments name. @internal */
export interface RunnerArgs {
  /** The packages it downloads, the one that runs first. */
  readonly packages: readonly string[];
  /** Shell command lines given to it (`npm exec -c '…'`). */
  readonly scripts: readonly string[];
}

/**
 * The packages and scripts in a runner's arguments: the options before the first plain word
 * (`-p pkg`, `--from pkg`, `--with extra`, `-c script`), then that word, which is the package
 * unless an option already named it (then it is the command to run from it). @internal
 */
export function runnerArgs(runner: Runner, args: readonly string[]): RunnerArgs {
  const packages: string[] = [];
  const scripts: string[] = [];
  let fromOption = false;
  let i = 0;
  while (i < args.length) {
    const word = args[i] as string;
    if (word === '--') {
      i++;
      break;
    }
    if (!word.startsWith('-') || word === '-') break;
    const eq = word.indexOf('=');
    const name = eq > 0 && word.startsWith('--') ? word.slice(0, eq) : word;
    const inline = eq > 0 && word.startsWith('--') ? word.slice(eq + 1) : undefined;
    const takesValue =
      runner.packageOptions.has(name) ||
      runner.extraPackageOptions.has(name) ||
      runner.scriptOptions.has(name) ||
      runner.valueOptions.has(name);
    const value = inline ?? (takesValue ? args[i + 1] : undefined);
    if (value !== undefined) {
      if (runner.packageOptions.has(name)) {
        packages.push(value);
        fromOption = true;
      } else if (runner.extraPackageOptions.has(name)) {
        packages.push(value);
      } else if (runner.scriptOptions.has(name)) {
        scripts.push(value);
      }
    }
    i += inline === undefined && takesValue ? 2 : 1;
  }
  const positional = args[i];
  if (!fromOption && positional !== undefined) packages.unshift(positional);
  return { packages, scripts };
}
