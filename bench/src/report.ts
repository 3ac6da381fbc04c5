// The shape every comparison reports in, and the markdown table and results.json made from it.

/** One measured figure, next to the baseline it is compared with. */
export interface Row {
  /** What was measured, e.g. `McpManager.call, sequential`. */
  readonly name: string;
  /** Median of the samples, in `unit`. */
  readonly median: number;
  /** 95th percentile of the samples, in `unit`. */
  readonly p95: number;
  /** `ms`, `µs`, `MB/s`, `req/s`, `MB`… */
  readonly unit: string;
  /** The row this one is compared with (its `name`), if any. */
  readonly baseline?: string;
  /**
   * This row's median divided by the baseline's, oriented so that > 1 means "worse" for times
   * and memory, and < 1 means "worse" for throughput; `higherIsBetter` says which.
   */
  readonly ratio?: number;
  /** Whether a higher figure is better (throughput) or worse (time, memory). */
  readonly higherIsBetter?: boolean;
  /** The target from the issue, in words, e.g. `≤ 1.15× the plain SDK client`. */
  readonly target?: string;
  /** Whether the target is met (absent when the row has no target). */
  readonly met?: boolean;
  /** Samples taken. */
  readonly samples?: number;
  /** Anything a reader needs to read the figure right. */
  readonly note?: string;
}

/** One comparison: a title, its rows, and notes (why a target is missed, what a profile showed). */
export interface Section {
  readonly id: string;
  readonly title: string;
  readonly rows: readonly Row[];
  readonly notes: readonly string[];
}

/** Median and 95th percentile of samples (linear interpolation between ranks). */
export function summarize(samples: readonly number[]): { median: number; p95: number } {
  if (samples.length === 0) return { median: Number.NaN, p95: Number.NaN };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => {
    const rank = q * (sorted.length - 1);
    const low = Math.floor(rank);
    const high = Math.ceil(rank);
    const lowValue = sorted[low] ?? Number.NaN;
    const highValue = sorted[high] ?? lowValue;
    return lowValue + (highValue - lowValue) * (rank - low);
  };
  return { median: at(0.5), p95: at(0.95) };
}

function figure(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** One section as a markdown table (median, p95, ratio to its baseline, target, met). */
export function sectionMarkdown(section: Section): string {
  const lines = [
    `### ${section.title}`,
    '',
    '| measured | median | p95 | ratio | target | met |',
    '| --- | ---: | ---: | ---: | --- | :---: |',
  ];
  for (const row of section.rows) {
    const ratio = row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}× ${row.baseline ?? ''}`;
    const met = row.met === undefined ? '' : row.met ? 'yes' : '**no**';
    lines.push(
      `| ${row.name}${row.note ? ` (${row.note})` : ''} | ${figure(row.median)} ${row.unit} | ${figure(row.p95)} ${row.unit} | ${ratio} | ${row.target ?? ''} | ${met} |`,
    );
  }
  if (section.notes.length > 0) {
    lines.push('');
    for (const note of section.notes) lines.push(`- ${note}`);
  }
  return lines.join('\n');
}

/** One row with a target, for the summary at the end of a run. */
export interface TargetRow {
  readonly section: string;
  readonly name: string;
  /** The figure the target is about: the ratio when the row has one, else the median. */
  readonly figure: string;
  readonly target: string;
  readonly met: boolean;
}

/** Every row of `sections` that has a target, in the order they ran. */
export function targetRows(sections: readonly Section[]): TargetRow[] {
  return sections.flatMap((section) =>
    section.rows
      .filter((row) => row.target !== undefined && row.met !== undefined)
      .map((row) => ({
        section: section.title,
        name: row.name,
        // A target in × is about the ratio; one in ms or KiB about the figure itself.
        figure:
          row.ratio === undefined || !(row.target ?? '').includes('×')
            ? `${figure(row.median)} ${row.unit}`
            : `${row.ratio.toFixed(2)}× (${figure(row.median)} ${row.unit})`,
        target: row.target ?? '',
        met: row.met === true,
      })),
  );
}

/** The summary table: every target of the run, its figure and whether it was met. */
export function targetsMarkdown(rows: readonly TargetRow[]): string {
  const met = rows.filter((row) => row.met).length;
  return [
    `### Targets: ${met} of ${rows.length} met`,
    '',
    '| comparison | measured | figure | target | met |',
    '| --- | --- | ---: | --- | :---: |',
    ...rows.map(
      (row) =>
        `| ${row.section} | ${row.name} | ${row.figure} | ${row.target} | ${row.met ? 'yes' : '**no**'} |`,
    ),
  ].join('\n');
}
