/**
 * Edit distance between two words: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each count one (optimal string alignment), compared without case.
 */
export function editDistance(a: string, b: string): number {
  const s = [...a.toLowerCase()];
  const t = [...b.toLowerCase()];
  // Three rows are enough: the swap looks two rows back.
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      }
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[t.length] ?? 0;
}

/** How far a word may be from a suggestion: one typo in a short word, up to three in a long one. */
function allowance(word: string): number {
  const length = [...word].length;
  return length <= 3 ? 1 : length <= 6 ? 2 : 3;
}

/**
 * The candidates closest to `word`, only those within a few typos of it (none when nothing is
 * close), nearest first, at most three.
 *
 * @param word - What was typed.
 * @param candidates - What exists.
 * @returns The close candidates.
 */
export function closeMatches(word: string, candidates: Iterable<string>): string[] {
  const limit = allowance(word);
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate === word) continue;
    const distance = editDistance(word, candidate);
    // A distance as long as the word itself would suggest anything for a short typo.
    if (distance <= limit && distance < [...word].length) scored.push({ candidate, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
  const best = scored[0]?.distance;
  return scored
    .filter((s) => s.distance === best)
    .slice(0, 3)
    .map((s) => s.candidate);
}

/**
 * ` Did you mean "status"?` (or `"a" or "b"`), or `''` when nothing is close.
 *
 * @param word - What was typed.
 * @param candidates - What exists.
 * @param show - How to write a candidate (default: JSON-quoted).
 */
export function didYouMean(
  word: string,
  candidates: Iterable<string>,
  show: (candidate: string) => string = (c) => JSON.stringify(c),
): string {
  const matches = closeMatches(word, candidates);
  if (matches.length === 0) return '';
  return ` Did you mean ${matches.map(show).join(' or ')}?`;
}
