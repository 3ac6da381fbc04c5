/**
 * Brands a class so that its instances are recognised without `instanceof`, also when they come
 * from another copy of the package that defined it (two versions in one `node_modules` tree, or
 * the same package bundled twice):
 *
 * - the marker `Symbol.for('<scope>.<name>')` goes on the class's prototype, so an instance
 *   carries the markers of its class and of every class above it. That is what makes the
 *   returned guard accept the class and its subclasses, and never a sibling.
 * - `name` goes on the prototype too, so messages and stack traces name the class and its
 *   constructor need not assign `this.name`.
 *
 * The name is written out rather than read from `cls.name`, which bundlers and minifiers rename.
 *
 * @param cls - the class; in a static field initialiser, `this`
 * @param scope - the first part of the marker, `garuda.<package folder>` (`garuda.mcp-trust`)
 * @param name - the class's exported name
 * @returns the guard for `static readonly isInstance`: a plain function that keeps no `this`, so
 *   it can be passed on as it is (`errors.filter(LockedFileError.isInstance)`)
 * @example
 * ```ts
 * export class LockedFileError extends TrustStoreError {
 *   static override readonly isInstance = brand(this, 'garuda.mcp-trust', 'LockedFileError');
 * }
 * ```
 */
export function brand<T extends object>(
  cls: abstract new (...args: never[]) => T,
  scope: string,
  name: string,
): (value: unknown) => value is T {
  const marker = Symbol.for(`${scope}.${name}`);
  Object.defineProperty(cls.prototype, marker, { value: true });
  // Writable and configurable like Error.prototype.name, so an instance may still rename itself.
  Object.defineProperty(cls.prototype, 'name', { value: name, writable: true, configurable: true });
  return (value): value is T =>
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true;
}
