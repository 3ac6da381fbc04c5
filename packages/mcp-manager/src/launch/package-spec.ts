/** Which registry a package runner downloads from. */
export type PackageEcosystem = 'npm' | 'python';

/** How a package argument of `npx`, `uvx` and the like pins what runs. */
export type PackagePin = 'pinned' | 'unpinned' | 'local';

const EXACT_SEMVER = /^[=v]?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const COMMIT = /^[0-9a-f]{40}$/i;
const PYTHON_VERSION = /^[0-9][0-9A-Za-z.+!-]*$/;

function isPathLike(spec: string): boolean {
  return (
    spec.startsWith('.') ||
    spec.startsWith('/') ||
    spec.startsWith('~') ||
    spec.startsWith('\\') ||
    spec.startsWith('file:') ||
    /^[A-Za-z]:[\\/]/.test(spec)
  );
}

function isUrlLike(spec: string): boolean {
  return (
    spec.includes('://') ||
    spec.startsWith('git+') ||
    spec.startsWith('git@') ||
    /^(?:github|gitlab|bitbucket|gist):/.test(spec)
  );
}

/** A git or URL spec is pinned only by a full commit hash (`#<sha>` or `@<sha>` at the end). */
function urlPin(spec: string): PackagePin {
  const at = Math.max(spec.lastIndexOf('#'), spec.lastIndexOf('@'));
  return at >= 0 && COMMIT.test(spec.slice(at + 1)) ? 'pinned' : 'unpinned';
}

function npmPin(raw: string): PackagePin {
  const spec = raw.startsWith('npm:') ? raw.slice(4) : raw;
  if (isPathLike(spec)) return 'local';
  if (isUrlLike(spec)) return urlPin(spec);
  // `user/repo` is GitHub shorthand; `@scope/pkg` is a scoped registry package.
  if (!spec.startsWith('@') && spec.includes('/')) return urlPin(spec);
  const at = spec.indexOf('@', 1);
  if (at < 0) return 'unpinned';
  return EXACT_SEMVER.test(spec.slice(at + 1)) ? 'pinned' : 'unpinned';
}

function pythonPin(spec: string): PackagePin {
  if (isUrlLike(spec) || /\s@\s/.test(spec)) return urlPin(spec.replace(/\s+/g, ''));
  if (isPathLike(spec) || spec.endsWith('.whl') || spec.endsWith('.tar.gz')) return 'local';
  // uv also takes `pkg@1.2.3`; `pkg@latest` asks for the newest.
  const at = spec.indexOf('@');
  if (at > 0) return EXACT_SEMVER.test(spec.slice(at + 1)) ? 'pinned' : 'unpinned';
  const eq = spec.indexOf('==');
  if (eq < 0 || spec.includes(',') || spec.includes('*')) return 'unpinned';
  const version = spec
    .slice(eq + 2)
    .replace(/^=/, '')
    .trim();
  return PYTHON_VERSION.test(version) ? 'pinned' : 'unpinned';
}

/**
 * Whether a package argument given to a package runner names one exact version. A runner such
 * as `npx` or `uvx` downloads the package and runs it; without an exact version, the registry
 * decides what runs today, and a new release (or a hijacked account) changes it tomorrow.
 *
 * npm: `pkg@1.2.3`, `@scope/pkg@1.2.3` are pinned; `pkg`, `@scope/pkg`, `pkg@latest`, `pkg@^1`,
 * `pkg@1.x` are not. Python: `pkg==1.2.3`, `pkg[extra]==1.2.3` and `pkg@1.2.3` (uv) are pinned;
 * `pkg`, `pkg>=1`, `pkg==1.*`, `pkg@latest` are not. A git or URL source is pinned only by a
 * full commit hash. A local path (`./dir`, `/opt/x`, `file:…`) downloads nothing: `local`.
 *
 * @param spec - The package argument, as written.
 * @param ecosystem - `npm` (npx, pnpm dlx, yarn dlx, bunx, npm exec) or `python` (uvx, pipx run).
 * @returns `pinned`, `unpinned` or `local`.
 * @example
 * ```ts
 * packagePin('@modelcontextprotocol/server-github@2025.4.8', 'npm'); // 'pinned'
 * packagePin('mcp-server-git', 'python');                            // 'unpinned'
 * ```
 */
export function packagePin(spec: string, ecosystem: PackageEcosystem): PackagePin {
  return ecosystem === 'npm' ? npmPin(spec) : pythonPin(spec);
}
