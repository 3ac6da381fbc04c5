// The shape every comparison reports in, and the markdown table and results.json made from it.

/**
 * The ten figures of the speed issue (39), each printed as a row with its target in every run and
 * collected at the end as "Issue 39: N of 10 met". A suite marks the row that measures one with
 * {@link Row.goal}; a figure no row measured (its suite failed or was not run) counts as missed.
 */
export const GOALS = {
  'cli-help': "`garuda-mcp --help` vs `node -e ''` (no SDK loaded)",
  'cli-list': "`garuda-mcp list` / `status --start lazy`, servers pinned, vs `node -e ''`",
  'gateway-first-list': "gateway: host's first `tools/list`, 30 pinned servers, after `initialize`",
  'gateway-call': 'gateway: a call through `serve` vs the same call direct',
  'call-cpu': '`McpManager.call`, client CPU per call vs plain SDK Client',
  'call-wall': '`McpManager.call` sequential wall vs SDK (capabilities read, sandbox off)',
  'heap-per-server': 'heap per connected server (30)',
  'sanitizer-throughput':
    'sanitiser (`cleanText` + `neutralizeTags`, result read) vs strip-ansi, 1 MB realistic',
  'neutralize-scaling': '`neutralizeTags` time at N MB / 1 MB, every size to 16 MB',
  'bench-completes': '`pnpm bench` on a loaded machine',
} as const;

/** One of the {@link GOALS}. */
export type GoalId = keyof typeof GOALS;

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
  /** Which of the issue's ten figures this row is (at most one row per figure in a run). */
  readonly goal?: GoalId;
  /** Why this side could not be measured; the row then has no figure (NaN) and `met: false`. */
  readonly failed?: string;
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
    if (row.failed !== undefined) {
      lines.push(
        `| ${row.name} (failed: ${row.failed}) | – | – | | ${row.target ?? ''} | ${met} |`,
      );
      continue;
    }
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

/** A row for a side that could not be measured: the reason instead of a figure. */
export function failedRow(
  name: string,
  error: unknown,
  extra: Pick<Row, 'unit' | 'target' | 'goal' | 'baseline'> = { unit: '' },
): Row {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    name,
    median: Number.NaN,
    p95: Number.NaN,
    ...extra,
    failed: reason.replace(/\s+/g, ' ').slice(0, 300),
    ...(extra.target === undefined ? {} : { met: false }),
  };
}

/** A whole suite that stopped with an error: one failed row and the error in the notes. */
export function failedSection(suite: string, error: unknown): Section {
  const row = failedRow(`suite ${suite}`, error);
  return {
    id: `${suite}-failed`,
    title: `${suite}: failed`,
    rows: [row],
    notes: [`The suite stopped with: ${row.failed ?? ''}. The run went on with the next suite.`],
  };
}

/** One line of the issue's summary: a goal, what this run measured for it, and the verdict. */
export interface GoalLine {
  readonly goal: GoalId;
  readonly figure: string;
  readonly target: string;
  readonly met: boolean;
}

/**
 * Every goal of {@link GOALS}, in order, with the row that measured it (a goal no row measured is
 * "not measured" and missed). `completed` says whether every suite ran to its end; it is the
 * figure of `bench-completes`, whose rows are failed sides reported on the way.
 */
export function goalLines(
  sections: readonly Section[],
  completed: readonly string[],
  failedSuites: readonly string[],
): GoalLine[] {
  const rows = sections.flatMap((section) => section.rows);
  const failedSides = rows.filter((row) => row.failed !== undefined).map((row) => row.name);
  return (Object.keys(GOALS) as GoalId[]).map((goal) => {
    if (goal === 'bench-completes') {
      return {
        goal,
        figure: `${completed.length} suites completed, ${failedSuites.length} stopped${failedSuites.length > 0 ? ` (${failedSuites.join(', ')})` : ''}; ${failedSides.length} failed sides reported${failedSides.length > 0 ? ` (${failedSides.join('; ')})` : ''}`,
        target: 'completes; a failed side is reported as such and the run goes on',
        met: failedSuites.length === 0 && completed.length > 0,
      };
    }
    const row = rows.find((candidate) => candidate.goal === goal);
    if (row === undefined) return { goal, figure: 'not measured', target: '', met: false };
    const figureText =
      row.failed !== undefined
        ? `failed: ${row.failed}`
        : row.ratio === undefined || !(row.target ?? '').includes('×')
          ? `${figure(row.median)} ${row.unit}`
          : `${row.ratio.toFixed(2)}× (${figure(row.median)} ${row.unit})`;
    return { goal, figure: figureText, target: row.target ?? '', met: row.met === true };
  });
}

/** The issue's summary table: the ten figures, their targets and whether each was met. */
export function goalsMarkdown(lines: readonly GoalLine[]): string {
  const met = lines.filter((line) => line.met).length;
  return [
    `### Issue 39: ${met} of ${lines.length} met`,
    '',
    '| figure | this run | target | met |',
    '| --- | --- | --- | :---: |',
    ...lines.map(
      (line) =>
        `| ${GOALS[line.goal]} | ${line.figure} | ${line.target} | ${line.met ? 'yes' : '**no**'} |`,
    ),
  ].join('\n');
}
