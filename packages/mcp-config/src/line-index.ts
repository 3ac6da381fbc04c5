/** A 1-based line and column. @internal */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/**
 * Maps offsets in `text` to 1-based line and column. Line breaks are `\n`, `\r\n` and `\r`,
 * as in the JSON scanner. The line starts are found once, so each lookup is a binary search.
 * @internal
 */
export function createLineIndex(text: string): (offset: number) => Position {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) starts.push(i + 1);
    else if (c === 0x0d) {
      if (text.charCodeAt(i + 1) === 0x0a) i++;
      starts.push(i + 1);
    }
  }
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
  };
}
