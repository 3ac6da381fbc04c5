import { shortText } from './quote-text.js';

/** A path inside a server definition: object keys and array indexes. @internal */
export type FieldPath = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A path as users read it: `env.GITHUB_TOKEN`, `args[2]`, `oauth.scopes[0]`, and
 * `headers["X-Api-Key"]` for keys that are not identifiers (cleaned and capped). @internal
 */
export function formatFieldPath(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(shortText(segment))}]`;
  }
  return out;
}
