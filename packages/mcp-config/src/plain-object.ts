// A helper for JSON values from files: one home for what several readers of them need
// (`isRecord` is @garuda/internal's).

/**
 * Sets `target[key]` as an own, ordinary property: `defineProperty`, so a key such as
 * `"__proto__"` from a file is stored as a key, never as a prototype. @internal
 */
export function defineOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
