// Test helpers for the tests of the stream readers (not part of the package: index.ts does not
// export them, so tsup leaves them out).

/**
 * `bytes` cut at each of `cuts` (in any order; repeated or past the end is fine), as the pieces a
 * stream could deliver: in order, none empty but the last, which may be.
 */
export function cutAt(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const pieces: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    const end = Math.min(cut, bytes.length);
    if (end > at) pieces.push(bytes.subarray(at, end));
    at = Math.max(at, end);
  }
  pieces.push(bytes.subarray(at));
  return pieces;
}
