import { SERVER_NAME } from './server-schema.js';

const MAX_NAME = 32;

/**
 * A server name from another client turned into a valid Garuda name: accents removed,
 * lower-cased, every character outside `[a-z0-9_-]` (and runs of them) written `-`, a run of
 * `-` and `_` written as its first character, no `-` or `_` at the start or end, at most 32
 * characters; `server` when nothing is left. The runs go because a model sees the server's
 * tools as `mcp__<server>__<tool>` (`-` written `_`): `other__search` would make them read as
 * the tools of a server `other` (`mcp__other__search__…`). @internal
 */
export function garudaName(name: string): string {
  const head = name.length > 256 ? name.slice(0, 256) : name;
  const plain = head
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/([-_])[-_]+/g, '$1');
  const trimmed = plain
    .replace(/^[-_]+/, '')
    .slice(0, MAX_NAME)
    .replace(/[-_]+$/, '');
  return trimmed === '' ? 'server' : trimmed;
}

/**
 * The first of `base`, `base-2`, `base-3`… that is not in `taken` (the base shortened so the
 * suffix fits in 32 characters). @internal
 */
export function freeName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const stem = base.slice(0, MAX_NAME - suffix.length).replace(/[-_]+$/, '');
    const candidate = `${stem === '' ? 'server' : stem}${suffix}`;
    if (!taken.has(candidate) && SERVER_NAME.test(candidate)) return candidate;
  }
}
