import { packagePin, type PackageEcosystem } from '../launch/package-spec.js';
import {
  programName,
  runnerArgs,
  runnerOf,
  skipOptions,
  words,
  type Runner,
} from '../launch/package-runners.js';
import { quoteText } from '../common/text.js';

/**
 * How serious each kind of consent warning is: lower comes first. Shared by every part that
 * adds warnings to a consent request, so one sort orders them all. @internal
 */
export const WarningRank = {
  sandbox: 0,
  remote: 1,
  privilege: 2,
  shell: 3,
  pipe: 4,
  /** `;`, `|`, `&&`, backticks, redirections in the command line, run by a shell or not. */
  shellSyntax: 5,
  download: 6,
  unpinned: 7,
  delete: 8,
  writePath: 9,
  /** A read path that shows the server a credential path the sandbox hides (`~/.kube`). */
  readPath: 10,
  secret: 11,
  network: 12,
} as const;

/** A warning with its rank. @internal */
export interface RankedWarning {
  readonly rank: number;
  readonly text: string;
}

/** Scripts inside scripts are followed this deep (`sh -c "bash -c '…'"`). */
const MAX_SCRIPT_DEPTH = 4;

const PRIVILEGE = words('sudo doas pkexec run0');
const SHELLS = words('sh bash zsh dash ksh mksh ash fish csh tcsh yash');
const DOWNLOADERS = words('curl wget wget2 invoke-webrequest invoke-restmethod iwr irm');

/** An entry for each of the space-separated `names`, all with `value`. */
function each<T>(names: string, value: T): [string, T][] {
  return [...words(names)].map((name) => [name, value]);
}

/** Interpreters that run code given on the command line, and the options that give it. */
const INLINE_CODE: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ...each('node bun', words('-e --eval -p --print')),
  ['deno', words('eval')],
  ...each('python python2 python3 pypy pypy3', words('-c')),
  ['perl', words('-e -E')],
  ...each('ruby osascript', words('-e')),
  ['php', words('-r')],
]);

/** A program that runs the program named after its options (and after `skip` plain words). */
interface Wrapper {
  /** Its options that take a value. */
  readonly values: ReadonlySet<string>;
  /** Plain words before the program, e.g. the duration of `timeout 5 cmd`. */
  readonly skip: number;
}

const WRAPPERS: ReadonlyMap<string, Wrapper> = new Map([
  // Those without an option that takes a value; chrt's priority and taskset's CPUs come first.
  ...each('nohup command builtin setsid busybox', { values: words(''), skip: 0 }),
  ...each('chrt taskset', { values: words(''), skip: 1 }),
  [
    'sudo',
    {
      values: words(
        '-u -g -C -D -h -p -r -t -U -T --user --group --chdir --prompt --host --role --type ' +
          '--other-user --close-from --command-timeout',
      ),
      skip: 0,
    },
  ],
  ['doas', { values: words('-u -C'), skip: 0 }],
  ['pkexec', { values: words('--user'), skip: 0 }],
  [
    'run0',
    {
      values: words(
        '-u --user -g --group -D --chdir --setenv --nice --property --slice --unit --description --machine',
      ),
      skip: 0,
    },
  ],
  ['time', { values: words('-f -o --format --output'), skip: 0 }],
  ['exec', { values: words('-a'), skip: 0 }],
  ['nice', { values: words('-n --adjustment'), skip: 0 }],
  ['ionice', { values: words('-c -n -p -P -u --class --classdata'), skip: 0 }],
  ['stdbuf', { values: words('-i -o -e --input --output --error'), skip: 0 }],
  ['timeout', { values: words('-s -k --signal --kill-after'), skip: 1 }],
  [
    'xargs',
    {
      values: words(
        '-I -n -P -L -s -d -E -a --arg-file --delimiter --max-args --max-procs --max-lines ' +
          '--max-chars --replace',
      ),
      skip: 0,
    },
  ],
]);

type Token = { readonly op: string } | { readonly word: string };

/**
 * Splits a shell command line into words and operators, roughly: quotes are dropped (so a
 * quoted operator counts as one: more warnings, never fewer), a backslash keeps the next
 * character, and `;`, `&`, `|`, `&&`, `||`, `|&`, `$(`, backticks, parentheses, redirections
 * and line breaks separate commands.
 */
function lex(script: string): Token[] {
  const tokens: Token[] = [];
  let word = '';
  const flush = () => {
    if (word !== '') tokens.push({ word });
    word = '';
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i] as string;
    const two = script.slice(i, i + 2);
    if (c === "'" || c === '"') continue;
    if (c === '\\') {
      word += script[++i] ?? '';
    } else if (two === '&&' || two === '||' || two === '|&' || two === '$(') {
      flush();
      tokens.push({ op: two });
      i++;
    } else if (';&|()`<>\n{}'.includes(c)) {
      flush();
      tokens.push({ op: c });
    } else if (/\s/.test(c)) {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  return tokens;
}

/** The simple commands of a script: the words between operators. */
function commands(script: string): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (const token of lex(script)) {
    if ('word' in token) {
      current.push(token.word);
    } else if (current.length > 0) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

const SHELL_NAMES =
  'sh|bash|zsh|dash|ksh|mksh|ash|fish|csh|tcsh|yash|python[0-9.]*|perl|ruby|node|php|pwsh|powershell|iex|invoke-expression|cmd';
/**
 * `|` (not `||`) then, after optional folders and wrappers such as `sudo`, a shell or an
 * interpreter ending the word. Each part stops at whitespace or `|`, so matching is linear.
 */
const PIPE_TO_SHELL = new RegExp(
  `(?:^|[^|])\\|&?\\s*(?:(?:env|sudo|doas|exec|command|nohup|busybox)(?:\\s+-[^\\s|]*)*\\s+)*(?:[^\\s|/\\\\]*[/\\\\])*(${SHELL_NAMES})(?:\\.exe)?(?=$|[\\s;&|)}])`,
  'i',
);

class Collector {
  readonly warnings: RankedWarning[] = [];

  add(rank: number, text: string): void {
    this.warnings.push({ rank, text });
  }
}

function checkRunner(
  label: string,
  runner: Runner,
  args: readonly string[],
  out: Collector,
  depth: number,
): void {
  const { packages, scripts } = runnerArgs(runner, args);
  for (const script of scripts) checkScript(script, out, depth + 1);
  for (const spec of packages) {
    if (packagePin(spec, runner.ecosystem) !== 'unpinned') continue;
    out.add(
      WarningRank.unpinned,
      `${quoteText(label)} downloads and runs code: ${quoteText(spec)} has no pinned version — pin one, e.g. ${pinExample(spec, runner.ecosystem)}`,
    );
  }
}

/** How the spec would look pinned: `"pkg@1.2.3"`, `"pkg==1.2.3"`, or a commit for a git source. */
function pinExample(spec: string, ecosystem: PackageEcosystem): string {
  if (ecosystem === 'npm') {
    const bare = spec.replace(/^npm:/, '');
    if (!/^(?:@[^/@]+\/)?[^/:@]+(?:@.*)?$/.test(bare)) return 'a full commit hash';
    return quoteText(`${bare.replace(/(?<=.)@.*$/, '')}@1.2.3`);
  }
  if (!/^[A-Za-z0-9._-]+(?:\[[^\]]*\])?(?:[=<>!~@].*)?$/.test(spec)) return 'a full commit hash';
  return quoteText(`${spec.split(/[=<>!~@]/)[0] ?? spec}==1.2.3`);
}

/** `sh -c`, `bash -lc`, …: the script, when the options before the first plain word hold `c`. */
function shellScript(rest: readonly string[]): string | undefined {
  let command = false;
  let i = 0;
  while (i < rest.length) {
    const word = rest[i] as string;
    if (word === '--' || word === '-') {
      i++;
      break;
    }
    if (!/^[-+]/.test(word)) break;
    if (/^[-+][oO]$/.test(word) || word === '--rcfile' || word === '--init-file') {
      i += 2;
      continue;
    }
    if (!word.startsWith('--') && word.slice(1).includes('c')) command = true;
    i++;
  }
  return command ? (rest[i] ?? '') : undefined;
}

/** `cmd /c …`: the rest of the line after `/c`, `/k` or `/r`. */
function cmdScript(rest: readonly string[]): string | undefined {
  const at = rest.findIndex((word) => /^\/[ckr]$/i.test(word) || /^\/[ckr]\s/i.test(word));
  if (at < 0) return undefined;
  const first = (rest[at] as string).slice(2).trim();
  return [first, ...rest.slice(at + 1)].filter((w) => w !== '').join(' ');
}

/** `powershell -Command …` (any prefix of the option), or an encoded command, decoded. */
function powershellScript(
  rest: readonly string[],
): { script: string; encoded: boolean } | undefined {
  for (let i = 0; i < rest.length; i++) {
    const word = (rest[i] as string).toLowerCase();
    if (!/^[-/]/.test(word)) continue;
    const name = word.slice(1);
    if (name === '') continue;
    if ('command'.startsWith(name) || name === 'commandwithargs' || name === 'cwa') {
      return { script: rest.slice(i + 1).join(' '), encoded: false };
    }
    if (name === 'ec' || (name.startsWith('e') && 'encodedcommand'.startsWith(name))) {
      const data = rest[i + 1] ?? '';
      return { script: Buffer.from(data, 'base64').toString('utf16le'), encoded: true };
    }
  }
  return undefined;
}

function hasFlag(options: readonly string[], short: RegExp, long: string): boolean {
  return options.some((word) =>
    word.startsWith('--') ? word === long : word.startsWith('-') && short.test(word.slice(1)),
  );
}

/** Options of `rm` before its first `--`. */
function isRecursiveForce(rest: readonly string[]): boolean {
  const end = rest.indexOf('--');
  const options = (end < 0 ? rest : rest.slice(0, end)).filter((word) => word.startsWith('-'));
  return hasFlag(options, /[rR]/, '--recursive') && hasFlag(options, /f/, '--force');
}

/**
 * The program-level checks of one simple command: wrappers (`sudo`, `env`, …) are looked
 * through, then shells with `-c`, inline code, package runners and `rm -rf`.
 */
function checkCommand(words: readonly string[], out: Collector, depth: number): void {
  let i = 0;
  while (i < words.length) {
    const program = programName(words[i] as string);
    if (PRIVILEGE.has(program)) {
      out.add(
        WarningRank.privilege,
        `runs ${quoteText(program)}: it asks for administrator (root) rights`,
      );
    }
    if (program === 'env') {
      i++;
      while (i < words.length) {
        const word = words[i] as string;
        if (word === '--') {
          i++;
          break;
        }
        if (word === '-S' || word === '--split-string' || word.startsWith('--split-string=')) {
          const script = word.includes('=') ? word.slice(word.indexOf('=') + 1) : words[i + 1];
          if (script !== undefined) checkScript(script, out, depth + 1);
          i += word.includes('=') ? 1 : 2;
        } else if (['-u', '--unset', '-C', '--chdir'].includes(word)) {
          i += 2;
        } else if (word.startsWith('-') || /^[^=]+=/.test(word)) {
          i++;
        } else {
          break;
        }
      }
      continue;
    }
    const wrapper = WRAPPERS.get(program);
    if (wrapper === undefined) break;
    i = skipOptions(words, i + 1, wrapper.values) + wrapper.skip;
  }
  if (i >= words.length) return;
  const program = programName(words[i] as string);
  const rest = words.slice(i + 1);

  if (SHELLS.has(program)) {
    const script = shellScript(rest);
    if (script !== undefined) {
      out.add(
        WarningRank.shell,
        `runs a shell command line (${quoteText(`${program} -c`)}): it can do anything, and is hard to check`,
      );
      checkScript(script, out, depth + 1);
    }
    return;
  }
  if (program === 'cmd') {
    const script = cmdScript(rest);
    if (script !== undefined) {
      out.add(
        WarningRank.shell,
        `runs a shell command line (${quoteText('cmd /c')}): it can do anything, and is hard to check`,
      );
      checkScript(script, out, depth + 1);
    }
    return;
  }
  if (program === 'powershell' || program === 'pwsh') {
    const found = powershellScript(rest);
    if (found !== undefined) {
      out.add(
        WarningRank.shell,
        found.encoded
          ? `runs an encoded PowerShell command (${quoteText(`${program} -EncodedCommand`)}): what it does is hidden from this screen`
          : `runs a shell command line (${quoteText(`${program} -Command`)}): it can do anything, and is hard to check`,
      );
      checkScript(found.script, out, depth + 1);
    }
    return;
  }
  const inline = INLINE_CODE.get(program);
  if (inline !== undefined) {
    for (const word of rest) {
      if (
        inline.has(word) ||
        [...inline].some((o) => o.startsWith('--') && word.startsWith(`${o}=`))
      ) {
        out.add(
          WarningRank.shell,
          `runs code written on its command line (${quoteText(`${program} ${word.replace(/=.*$/, '')}`)}): it can do anything, and is hard to check`,
        );
        break;
      }
      if (!word.startsWith('-')) break;
    }
  }
  const runner = runnerOf(program, rest);
  if (runner !== undefined) {
    checkRunner(runner.label, runner.runner, runner.args, out, depth);
    return;
  }
  if (program === 'rm' && isRecursiveForce(rest)) {
    out.add(
      WarningRank.delete,
      `deletes files recursively without asking (${quoteText('rm -rf')})`,
    );
  }
}

/** Every simple command of a script, also after `|`, `;`, `&&`, inside `$(…)`. */
function checkScript(script: string, out: Collector, depth: number): void {
  if (depth > MAX_SCRIPT_DEPTH) return;
  checkText(script, out);
  for (const command of commands(script)) checkCommand(command, out, depth);
}

/** Checks on any text that may reach a shell: downloaders as words, pipes into a shell. */
function checkText(text: string, out: Collector): void {
  for (const token of lex(text)) {
    if (!('word' in token)) continue;
    const name = programName(token.word.replace(/^[^=]*=/, ''));
    if (DOWNLOADERS.has(name)) {
      out.add(WarningRank.download, `uses ${quoteText(name)} to download from the network`);
    }
  }
  const unquoted = text.replace(/["'\\]/g, '');
  const pipe = PIPE_TO_SHELL.exec(unquoted);
  if (pipe !== null) {
    out.add(
      WarningRank.pipe,
      `pipes text into a shell (${quoteText(`| ${(pipe[1] ?? 'sh').toLowerCase()}`)}): it runs whatever arrives`,
    );
  }
}

/** Shell operators, in the order a warning names them. */
const SHELL_OPERATORS = [';', '&&', '||', '|', '&', '`', '$(', '>', '<'] as const;
type ShellOperator = (typeof SHELL_OPERATORS)[number];

/** A word that starts with a redirection (`>out`, `2>&1`, `>>log`, `<in`, `&>x`). */
const REDIRECTION = /^(?:[0-9]{0,3}|&)[<>]/;

/**
 * The shell operators written in a command line, by fixed searches over each word (linear in
 * its length; no pattern is built from the text). A redirection counts only at the start of a
 * word, so a version range such as `pkg>=1.0` is not one; a lone `&` only as a word of its own.
 */
function shellOperators(words: readonly string[]): ShellOperator[] {
  const found = new Set<ShellOperator>();
  for (const word of words) {
    for (const op of [';', '&&', '||', '`', '$('] as const) if (word.includes(op)) found.add(op);
    if (word.replaceAll('||', '').includes('|')) found.add('|');
    if (word === '&') found.add('&');
    const redirection = REDIRECTION.exec(word.slice(0, 8));
    if (redirection !== null) found.add(word.charAt(redirection[0].length - 1) as '<' | '>');
  }
  return SHELL_OPERATORS.filter((op) => found.has(op));
}

/**
 * The consent warnings a server's command line deserves, ranked (see {@link WarningRank}),
 * without duplicates. Looks through wrappers (`env`, `sudo`, `nohup`, `timeout`, …) and into the
 * command lines given to shells (`sh -c`, `bash -lc`, `cmd /c`, `powershell -Command`, also
 * base64-encoded), at most four levels deep. Finds: `sudo`/`doas`; shells with `-c` and inline
 * code (`node -e`, `python -c`); pipes into a shell (`| sh`, `|bash`, inside any argument);
 * shell syntax anywhere in the command line (`;`, `&&`, `||`, `|`, a lone `&`, backticks, `$(`,
 * a redirection at the start of a word), said differently when a shell runs it and when not;
 * `curl` and `wget` anywhere; package runners (`npx`, `uvx`, `pnpm dlx`, `yarn dlx`, `bunx`,
 * `pipx run`, `npm exec`, `uv tool run`) with a package that has no pinned version; `rm` with
 * both `-r` and `-f` in any order. These are heuristics for a person reading a consent screen,
 * not a sandbox: a determined author can hide a command (the full command line is shown too).
 * @internal
 *
 * @param argv - The command and its arguments, as written in the config.
 * @returns The warnings, each one line, with program and package names JSON-quoted.
 * @example
 * ```ts
 * commandWarnings(['npx', '-y', '@scope/server']).map((w) => w.text);
 * // ['"npx" downloads and runs code: "@scope/server" has no pinned version — pin one, e.g. "@scope/server@1.2.3"']
 * ```
 */
export function commandWarnings(argv: readonly string[]): RankedWarning[] {
  const out = new Collector();
  const words = argv.filter((word): word is string => typeof word === 'string');
  for (const word of words) checkText(word, out);
  // A pipe written as separate words (`… | sh`) only means something to a shell, but say so.
  checkText(words.join(' '), out);
  checkCommand(words, out, 0);
  const operators = shellOperators(words);
  if (operators.length > 0) {
    const shown = operators.map((op) => quoteText(op)).join(', ');
    const shell = out.warnings.some((warning) => warning.rank === WarningRank.shell);
    out.add(
      WarningRank.shellSyntax,
      shell
        ? `its shell command line uses ${shown}: it can run several commands and write files; ` +
            'read all of it'
        : `has shell syntax (${shown}) in its command line, but no shell runs it here: the ` +
            'program gets it as text, so the line does not do what it looks like; check why it ' +
            'is there',
    );
  }
  const seen = new Set<string>();
  return out.warnings
    .filter((warning) => !seen.has(warning.text) && seen.add(warning.text))
    .sort((a, b) => a.rank - b.rank);
}
