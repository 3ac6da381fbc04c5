// Every published package tells its errors apart with `X.isInstance(value)`, backed by a
// `Symbol.for('garuda.<pkg>.<Name>')` marker so that errors from another copy of the package are
// recognised too. This walks each public entry for every exported Error class and checks, on
// instances made by the real constructors, that `A.isInstance(b)` holds exactly when b's class is
// A or a subclass of A: a sibling never passes, the base class accepts the whole package. The
// sources are checked too: every marker and isInstance comes from @garuda/internal's brand.
import * as config from '@garuda/mcp-config';
import * as manager from '@garuda/mcp-manager';
import * as oauth from '@garuda/mcp-oauth';
import * as sanitize from '@garuda/mcp-sanitize';
import * as tools from '@garuda/mcp-tools';
import * as transport from '@garuda/mcp-transport';
import * as trust from '@garuda/mcp-trust';
import * as pinned from '@garuda/pinned-fetch';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './workspace.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The names of a module's exports that are Error classes. */
type ErrorExportName<M> = {
  [K in keyof M]: M[K] extends ErrorClass ? K : never;
}[keyof M] &
  string;

/**
 * How to make one instance of each exported Error class, with its real constructor. Keyed by
 * export name: the compiler and the walk below both fail when a class is added without an entry.
 * Each factory takes the module, so that the same instances can be made by a second copy of it.
 */
type Factories<M> = { readonly [K in ErrorExportName<M>]: (m: M) => Error };

interface PackageCase {
  name: string;
  module: object;
  make: Readonly<Record<string, (m: object) => Error>>;
}

function errorsOf<M extends object>(name: string, module: M, make: Factories<M>): PackageCase {
  return { name, module, make: make as unknown as PackageCase['make'] };
}

const cause = new Error('underlying');

const PACKAGES: PackageCase[] = [
  errorsOf('@garuda/mcp-sanitize', sanitize, {
    SanitizeError: (m) => new m.SanitizeError(m.SanitizeErrorCode.INVALID_INPUT, 'x'),
  }),
  errorsOf('@garuda/pinned-fetch', pinned, {
    PinnedFetchError: (m) => new m.PinnedFetchError(m.PinnedFetchErrorCode.LOOKUP_FAILED, 'x'),
    BlockedAddressError: (m) =>
      new m.BlockedAddressError({ host: 'h', address: '127.0.0.1', addressClass: 'loopback' }),
    LookupFailedError: (m) =>
      new m.LookupFailedError(m.PinnedFetchErrorCode.LOOKUP_FAILED, 'h', cause),
    PinnedFetchOptionsError: (m) => new m.PinnedFetchOptionsError('timeoutMs', 'must be positive'),
  }),
  errorsOf('@garuda/mcp-config', config, {
    ConfigError: (m) => new m.ConfigError(m.ConfigErrorCode.NOT_FOUND, 'x'),
    InvalidServerError: (m) => new m.InvalidServerError('/f', []),
    FileUnusableError: (m) => new m.FileUnusableError('/f', [], cause),
    HostFileError: (m) =>
      new m.HostFileError(m.ConfigErrorCode.HOST_FILE_UNUSABLE, '/f', 'not-a-file', {}, cause),
    ServerEntryError: (m) => new m.ServerEntryError(m.ConfigErrorCode.NOT_FOUND, '/f', 's'),
  }),
  errorsOf('@garuda/mcp-trust', trust, {
    TrustStoreError: (m) => new m.TrustStoreError(m.TrustStoreErrorCode.INVALID_KEY, 'x'),
    LockedFileError: (m) =>
      new m.LockedFileError(
        m.TrustStoreErrorCode.LOCK_TIMEOUT,
        'x',
        { file: '/f', path: '/f.lock' },
        { cause },
      ),
  }),
  errorsOf('@garuda/mcp-transport', transport, {
    TransportError: (m) => new m.TransportError(m.TransportErrorCode.INVALID_OPTIONS, 'x'),
    TransportOptionsError: (m) => new m.TransportOptionsError('o', 'p'),
    InvalidPolicyError: (m) => new m.InvalidPolicyError('f', 'p'),
    UnprotectablePathError: (m) => new m.UnprotectablePathError('/p'),
    SpawnFailedError: (m) =>
      new m.SpawnFailedError(m.TransportErrorCode.COMMAND_NOT_FOUND, 'cmd', cause),
    MessageTooLargeError: (m) => new m.MessageTooLargeError(10, 5, 'x'),
    ProcessExitedError: (m) => new m.ProcessExitedError('cmd', 1, null, []),
    TransportClosedError: (m) => new m.TransportClosedError('m'),
    ResponseTooLargeError: (m) => new m.ResponseTooLargeError('https://x.test/', 1, 'response'),
  }),
  errorsOf('@garuda/mcp-oauth', oauth, {
    OAuthFlowError: (m) => new m.OAuthFlowError(m.OAuthFlowErrorCode.INVALID_OPTION, 'x'),
    InsecureAuthorizationServerError: (m) => new m.InsecureAuthorizationServerError('f', 'r'),
    NoClientRegistrationError: (m) => new m.NoClientRegistrationError('s', false),
    CallbackPortChangedError: (m) => new m.CallbackPortChangedError('s', 1, 2, false),
    CallbackPortInUseError: (m) => new m.CallbackPortInUseError('127.0.0.1', 1, cause),
    AuthorizationDeniedError: (m) => new m.AuthorizationDeniedError('access_denied'),
    KeyringUnavailableError: (m) => new m.KeyringUnavailableError('no keychain', cause),
    ClientIssuerMismatchError: (m) =>
      new m.ClientIssuerMismatchError('s', 'https://a.test', 'https://b.test'),
  }),
  errorsOf('@garuda/mcp-tools', tools, {
    McpToolsError: (m) => new m.McpToolsError(m.McpToolsErrorCode.INVALID_OPTION, 'x'),
    InvalidOptionError: (m) => new m.InvalidOptionError('adaptTools', 'maxTools', -1),
  }),
  errorsOf('@garuda/mcp-manager', manager, {
    McpManagerError: (m) => new m.McpManagerError(m.McpManagerErrorCode.CLOSED, 'x'),
    InvalidOptionsError: (m) => new m.InvalidOptionsError('o', 'p'),
    AlreadyStartedError: (m) => new m.AlreadyStartedError(),
    NotStartedError: (m) => new m.NotStartedError('w'),
    ManagerClosedError: (m) => new m.ManagerClosedError('w'),
    StartCancelledError: (m) => new m.StartCancelledError('w'),
    UnknownServerError: (m) => new m.UnknownServerError('s', '"s"'),
    UnknownToolError: (m) => new m.UnknownToolError('t', '"t"'),
    UnknownTaskError: (m) => new m.UnknownTaskError('t', 'that was started through this manager'),
    ToolHiddenError: (m) => new m.ToolHiddenError('t', 'denied', 'hidden'),
    ServerNotConnectedError: (m) => new m.ServerNotConnectedError('s', 'failed', 'w'),
    InvalidArgumentsError: (m) => new m.InvalidArgumentsError('t', 'g'),
    CallDeclinedError: (m) => new m.CallDeclinedError('t'),
    CallCancelledError: (m) => new m.CallCancelledError('t'),
    CallTimeoutError: (m) => new m.CallTimeoutError('t', 's', 1),
    ResultTooLargeError: (m) => new m.ResultTooLargeError('t', 'd'),
    ServerStoppedError: (m) => new m.ServerStoppedError('t', 's', 'w'),
    CallFailedError: (m) => new m.CallFailedError('t', 'd'),
    SignInRequiredError: (m) =>
      new m.SignInRequiredError({
        server: 's',
        reason: 'required',
        scopes: [],
        addedScopes: [],
        detail: 'd',
      }),
  }),
];

type Guard = (value: unknown) => boolean;
type BrandedClass = ErrorClass & { isInstance?: unknown };

/** Every export of a module namespace that is a class extending Error, by export name. */
function errorClasses(module: object): Map<string, BrandedClass> {
  const found = new Map<string, BrandedClass>();
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === 'function' && value.prototype instanceof Error) found.set(name, value);
  }
  return found;
}

/** A second, separate copy of a package's built entry, as two versions in one tree would be. */
async function secondCopy(name: string): Promise<object> {
  const entry = pathToFileURL(
    join(repoRoot, 'packages', name.slice('@garuda/'.length), 'dist/index.js'),
  );
  return (await import(/* @vite-ignore */ `${entry.href}?second-copy`)) as object;
}

describe.each(PACKAGES)('$name', ({ name, module, make }) => {
  const classes = errorClasses(module);
  const factories = make;
  const short = name.slice('@garuda/'.length);

  it('exports Error classes, each with a factory in this test', () => {
    expect(classes.size).toBeGreaterThan(0);
    expect([...classes.keys()].sort()).toEqual(Object.keys(factories).sort());
  });

  it('gives every class an isInstance of its own', () => {
    for (const [className, Class] of classes) {
      expect(Object.hasOwn(Class, 'isInstance'), `${className}.isInstance`).toBe(true);
      expect(typeof Class.isInstance, `${className}.isInstance`).toBe('function');
    }
    expect(new Set([...classes.values()].map((Class) => Class.isInstance)).size).toBe(classes.size);
  });

  /** Instances made by each factory, by export name, checked to be of exactly that class. */
  function instances(of: object): Map<string, Error> {
    const ofClasses = errorClasses(of);
    const made = new Map<string, Error>();
    for (const [className, factory] of Object.entries(factories)) {
      const error = factory(of);
      expect(Object.getPrototypeOf(error), className).toBe(ofClasses.get(className)?.prototype);
      made.set(className, error);
    }
    return made;
  }

  /**
   * Every (A, b) where `A.isInstance(b)` differs from "b's class is A or extends A", for the
   * classes `of` one copy of the package. Called detached, as in `errors.filter(A.isInstance)`.
   */
  function wrongAnswers(of: Map<string, BrandedClass>, made: Map<string, Error>): string[] {
    const wrong: string[] = [];
    for (const [a, A] of of) {
      const isA = A.isInstance as Guard;
      for (const [b, error] of made) {
        const B = of.get(b) as BrandedClass;
        const expected = B === A || B.prototype instanceof A;
        if (isA(error) !== expected) wrong.push(`${a}.isInstance(new ${b}(…)) is ${!expected}`);
      }
    }
    return wrong;
  }

  it('marks each instance with Symbol.for("garuda.<pkg>.<Name>") of its class', () => {
    for (const [className, error] of instances(module)) {
      const marker = Symbol.for(`garuda.${short}.${className}`);
      expect((error as unknown as Record<symbol, unknown>)[marker], className).toBe(true);
    }
  });

  it('accepts exactly the class and its subclasses, never a sibling', () => {
    expect(wrongAnswers(classes, instances(module))).toEqual([]);
  });

  it('recognises errors made by another copy of the package, both ways', async () => {
    const copy = await secondCopy(name);
    const copyClasses = errorClasses(copy);
    const [first] = classes.keys();
    expect(copyClasses.get(first as string)).not.toBe(classes.get(first as string));
    expect(wrongAnswers(classes, instances(copy))).toEqual([]);
    expect(wrongAnswers(copyClasses, instances(module))).toEqual([]);
  });

  it('rejects null, undefined, a plain Error and look-alikes', () => {
    for (const [className, error] of instances(module)) {
      const { name: errorName, message } = error;
      const code = (error as Error & { code?: unknown }).code;
      const lookAlikes = [
        null,
        undefined,
        new Error(message),
        { name: errorName, code, message },
        Object.assign(new Error(message), { name: errorName, code }),
      ];
      for (const [a, A] of classes) {
        for (const value of lookAlikes) {
          expect((A.isInstance as Guard)(value), `${a} on a look-alike of ${className}`).toBe(
            false,
          );
        }
      }
    }
  });
});

// A static field `isInstance = brand(this, <scope>, '<Name>')`, the only form allowed.
const BRANDED =
  /static (?:override )?readonly isInstance = brand\(this, (SCOPE|'[^']+'), '(\w+)'\);/;

describe('error sources', () => {
  const folders = readdirSync(join(repoRoot, 'packages')).filter((name) => name !== 'internal');

  it.each(folders)(
    'packages/%s: markers and isInstance come only from brand, named after their class',
    (folder) => {
      const dir = join(repoRoot, 'packages', folder, 'src');
      // Every source file, in the package's folders too.
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
        (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
      );
      let branded = 0;
      let errorClassCount = 0;
      for (const file of files) {
        const text = readFileSync(join(dir, file), 'utf8');
        errorClassCount += text.match(/^export (?:abstract )?class \w+Error\b/gm)?.length ?? 0;
        const where = `packages/${folder}/src/${file}`;
        // No copy of the marker machinery: no own brand, mark or hasMarker, no hand-made error
        // marker (other markers, such as a compiled tag list's, are not errors').
        expect(text, where).not.toMatch(
          /function (brand|mark|hasMarker)\b|Symbol\.for\(['"`][^'"`]*Error['"`]|\bMARKERS\b/,
        );
        const scope = /const SCOPE = '([^']+)';/.exec(text)?.[1];
        let owner: string | undefined;
        for (const line of text.split('\n')) {
          owner = /^export (?:abstract )?class (\w+)/.exec(line)?.[1] ?? owner;
          if (!/\bstatic\b.*\bisInstance\b/.test(line)) continue;
          const m = BRANDED.exec(line);
          expect(m, `${where}: ${line.trim()}`).not.toBeNull();
          const [, scopeArg = '', name] = m as RegExpExecArray;
          expect(scopeArg === 'SCOPE' ? scope : scopeArg.slice(1, -1), where).toBe(
            `garuda.${folder}`,
          );
          expect(name, `${where}: the brand of ${owner}`).toBe(owner);
          branded++;
        }
      }
      // A package with error classes brands them (a package without, such as the gateway, has
      // nothing to brand).
      if (errorClassCount > 0) {
        expect(branded, `packages/${folder} brands its errors`).toBeGreaterThan(0);
      }
    },
  );

  it('@garuda/internal makes the markers in one place', () => {
    const dir = join(repoRoot, 'packages', 'internal', 'src');
    const makers = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => /Symbol\.for\(/.test(readFileSync(join(dir, f), 'utf8')));
    expect(makers).toEqual(['brand.ts']);
  });
});
