// The checks of `pnpm release:check` that look at one package's files: pure functions over what
// the packed tarball holds, so a test can feed them broken packages and see each one refused.
// Each returns a list of problems (empty: fine), worded for the person cutting the release.

/** The version every package has before its first release. */
export const UNRELEASED = '0.0.0';
/** The version every package's first release must have. */
export const FIRST_RELEASE = '0.1.0';

/** Files npm always puts in a tarball, whatever `files` says. */
const ALWAYS_SHIPPED = /^(package\.json|README(\.md)?|LICENSE(\.md)?|CHANGELOG\.md)$/i;

const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];

/**
 * Checks the version a package is about to be published with.
 *
 * @param {string} name
 * @param {string} before the version in the repository before `changeset version`
 * @param {string} after the version after it
 * @returns {string[]}
 */
export function checkVersion(name, before, after) {
  if (before === UNRELEASED && after !== FIRST_RELEASE) {
    return [
      `${name}: its first release would be ${after}, not ${FIRST_RELEASE}. Every package starts at ` +
        `${FIRST_RELEASE}: give it a "minor" changeset (and no "major" one).`,
    ];
  }
  if (after === UNRELEASED) return [`${name}: still at ${UNRELEASED}; it has no changeset.`];
  return [];
}

/**
 * Checks a packed `package.json`: no `workspace:` protocol left, our own dependencies named by
 * real ranges that the versions being released satisfy, nothing private depended on, and the
 * fields npm provenance and users need.
 *
 * @param {Record<string, any>} manifest the `package.json` inside the tarball
 * @param {{ version: string, folder: string, released: Map<string, string>, private: Set<string>, repositoryUrl: string }} context
 *   `released`: name → version of every package of this release; `private`: names never published
 * @returns {string[]}
 */
export function checkManifest(manifest, context) {
  const name = String(manifest.name);
  const problems = [];
  if (manifest.version !== context.version) {
    problems.push(`${name}: the tarball says version ${manifest.version}, not ${context.version}.`);
  }
  if (JSON.stringify(manifest).includes('workspace:')) {
    problems.push(
      `${name}: its packed package.json still says "workspace:"; npm cannot install that. ` +
        'Pack with pnpm, which replaces it with the version.',
    );
  }
  for (const field of DEPENDENCY_FIELDS) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (context.private.has(dep)) {
        problems.push(`${name}: ${field} names ${dep}, which is private and never published.`);
        continue;
      }
      const version = context.released.get(dep);
      if (version === undefined) continue;
      if (range !== version && range !== `^${version}` && range !== `~${version}`) {
        problems.push(
          `${name}: ${field} asks for ${dep}@${range}, but this release publishes ${dep}@${version}.`,
        );
      }
    }
  }
  if (manifest.license !== 'MIT') problems.push(`${name}: "license" is not "MIT".`);
  if (manifest.publishConfig?.access !== 'public') {
    problems.push(`${name}: "publishConfig.access" is not "public" (a scoped package would fail).`);
  }
  const repository = manifest.repository ?? {};
  if (repository.url !== context.repositoryUrl || repository.directory !== context.folder) {
    problems.push(
      `${name}: "repository" must be { url: ${JSON.stringify(context.repositoryUrl)}, directory: ` +
        `${JSON.stringify(context.folder)} }; npm provenance checks it against the workflow's repository.`,
    );
  }
  return problems;
}

/**
 * Checks the file list of a tarball: the README, LICENSE and CHANGELOG are there, every target of
 * `exports`, `types` and `bin` is there, and nothing outside `files` slipped in.
 *
 * @param {Record<string, any>} manifest the `package.json` inside the tarball
 * @param {string[]} files paths inside the tarball, without the leading `package/`
 * @returns {string[]}
 */
export function checkFiles(manifest, files) {
  const name = String(manifest.name);
  const problems = [];
  const have = new Set(files);
  for (const needed of ['README.md', 'LICENSE']) {
    if (!have.has(needed)) problems.push(`${name}: the tarball has no ${needed}.`);
  }
  for (const target of entryTargets(manifest)) {
    const file = target.replace(/^\.\//, '');
    if (!have.has(file))
      problems.push(`${name}: ${target} is named in package.json but not shipped.`);
  }
  const allowed = (manifest.files ?? []).map((entry) =>
    entry.replace(/^\.\//, '').replace(/\/$/, ''),
  );
  const stray = files.filter(
    (file) =>
      !ALWAYS_SHIPPED.test(file) &&
      !allowed.some((entry) => file === entry || file.startsWith(`${entry}/`)),
  );
  if (stray.length > 0) {
    problems.push(`${name}: the tarball ships files outside "files": ${stray.join(', ')}.`);
  }
  return problems;
}

/**
 * Checks that `CHANGELOG.md` opens with a section for the version (the newest release on top)
 * and that the section lists at least one change.
 *
 * @param {string} name
 * @param {string} version
 * @param {string | undefined} changelog the file's text, or undefined when there is none
 * @returns {string[]}
 */
export function checkChangelog(name, version, changelog) {
  if (changelog === undefined) {
    return [`${name}: the tarball has no CHANGELOG.md (is it in "files"?).`];
  }
  const sections = changelog.split(/^## /m).slice(1);
  const heading = (text) => text.split('\n', 1)[0].trim();
  const section = sections.find((text) => heading(text) === version);
  if (section === undefined) return [`${name}: CHANGELOG.md has no "## ${version}" section.`];
  if (section !== sections[0]) {
    return [
      `${name}: CHANGELOG.md opens with "## ${heading(sections[0])}", not the version being ` +
        `released, ${version}; the newest release goes on top.`,
    ];
  }
  if (!/^\s*- \S/m.test(section))
    return [`${name}: the "## ${version}" section of CHANGELOG.md lists no change.`];
  return [];
}

/**
 * Checks the versions of a release as a whole: a package changes version only through a
 * changeset, so with none pending every version stays as the repository has it; a private
 * package is never versioned.
 *
 * @param {{ name: string, private: boolean, before: string, after: string | undefined }[]} packages
 *   every workspace package, with its version before and after `changeset version`
 * @param {number} pending how many changesets were waiting before `changeset version`
 * @returns {string[]}
 */
export function checkReleaseVersions(packages, pending) {
  const problems = [];
  for (const pkg of packages) {
    if (pkg.after === undefined) {
      problems.push(`${pkg.name}: its package.json is gone after changeset version.`);
    } else if (pkg.private && pkg.after !== pkg.before) {
      problems.push(
        `${pkg.name}: it is private, yet changeset version moved it from ${pkg.before} to ` +
          `${pkg.after}; private packages are never versioned (see .changeset/config.json).`,
      );
    } else if (!pkg.private && pending === 0 && pkg.after !== pkg.before) {
      problems.push(
        `${pkg.name}: changeset version moved it from ${pkg.before} to ${pkg.after} with no ` +
          'changeset pending.',
      );
    }
  }
  return problems;
}

/**
 * Checks that publishing is one `pnpm release` run: the root `release` script builds every
 * published package and ends in `changeset publish`, and the changesets config publishes with
 * public access and leaves private packages alone.
 *
 * @param {Record<string, any>} rootManifest the root package.json
 * @param {Record<string, any>} config `.changeset/config.json`
 * @returns {string[]}
 */
export function checkPublishSetup(rootManifest, config) {
  const problems = [];
  const release = String(rootManifest.scripts?.release ?? '');
  if (!/\bturbo run build\b/.test(release) || !/ && changeset publish$/.test(release)) {
    problems.push(
      `The root "release" script is ${JSON.stringify(release)}; it must build the packages ` +
        '(turbo run build) and end in "&& changeset publish", which the release workflow runs.',
    );
  }
  if (config.access !== 'public') {
    problems.push('.changeset/config.json: "access" is not "public" (scoped packages would fail).');
  }
  if (config.privatePackages?.version !== false || config.privatePackages?.tag !== false) {
    problems.push(
      '.changeset/config.json: "privatePackages" must be { version: false, tag: false }: test ' +
        'utilities, e2e and bench are never versioned or tagged.',
    );
  }
  return problems;
}

/**
 * Every file a manifest points at: `exports` targets (conditions included), `types`, `main`, `bin`.
 *
 * @param {Record<string, any>} manifest
 * @returns {string[]}
 */
function entryTargets(manifest) {
  const targets = [];
  const walk = (value) => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(manifest.exports);
  walk(manifest.bin);
  for (const field of ['types', 'main'])
    if (typeof manifest[field] === 'string') targets.push(manifest[field]);
  return [...new Set(targets)].filter((target) => !target.includes('*'));
}
