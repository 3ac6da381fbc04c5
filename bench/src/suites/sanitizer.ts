// Sanitiser throughput: cleanText, and cleanText + neutralizeTags (what the manager runs on every
// tool result), against strip-ansi on the same text, on realistic tool output and on hostile
// input; plus how the time grows from 1 MB to 4 MB, and a CPU profile that says where it goes.
// The inputs themselves are made in sanitizer-input.ts.
import { cleanText, compileTags, DEFAULT_TAGS, neutralizeTags } from '@garuda/mcp-sanitize';
import stripAnsi from 'strip-ansi';
import { profile, type ProfileSummary } from '../profile.js';
import { summarize, type Row, type Section } from '../report.js';
import {
  ESC,
  SEED,
  adversarialChunk,
  generate,
  realisticChunk,
  type Dice,
} from './sanitizer-input.js';

const MIB = 2 ** 20;
/** Timed rounds per input; each round runs every subject once, in a rotating order. */
const MAX_ROUNDS = 60;
const MIN_ROUNDS = 15;
/** Stop adding rounds for one input after this long, so a loaded machine still finishes. */
const ROUNDS_BUDGET_MS = 30_000;
const WARMUP_ROUNDS = 3;
/** Passes over the 1 MB input under the profiler (strip-ansi, being faster, gets more). */
const PROFILE_PASSES = 12;
const STRIP_PROFILE_PASSES = 60;

// ---------------------------------------------------------------------------------------------
// Timing

const gc = (globalThis as { gc?: () => void }).gc;

interface Subject {
  readonly name: string;
  readonly input: string;
  readonly run: (text: string) => string;
}

/**
 * Runs every subject once per round, in a rotating order so no subject always goes first, with
 * a full GC before each sample (so one subject's garbage is not collected on another's time).
 */
function timeRounds(subjects: readonly Subject[]): Map<string, number[]> {
  const samples = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  for (let r = 0; r < WARMUP_ROUNDS; r++) for (const s of subjects) s.run(s.input);
  const started = performance.now();
  for (let r = 0; r < MAX_ROUNDS; r++) {
    if (r >= MIN_ROUNDS && performance.now() - started > ROUNDS_BUDGET_MS) break;
    for (let k = 0; k < subjects.length; k++) {
      const s = subjects[(r + k) % subjects.length] as Subject;
      gc?.();
      const t0 = performance.now();
      s.run(s.input);
      const t1 = performance.now();
      samples.get(s.name)?.push(t1 - t0);
    }
  }
  return samples;
}

const tags = compileTags(DEFAULT_TAGS);

// Named functions, so the profile names the subjects.
function clean(text: string): string {
  return cleanText(text);
}

/**
 * cleanText builds its result by concatenation, which V8 keeps as a rope of slices until someone
 * reads it; strip-ansi returns a flat string. A regex search flattens the rope, as the first
 * reader of the result would.
 */
function cleanFlattened(text: string): string {
  const out = cleanText(text);
  /./.test(out);
  return out;
}

function cleanAndNeutralize(text: string): string {
  return neutralizeTags(cleanText(text), tags);
}

function neutralizeOnly(text: string): string {
  return neutralizeTags(text, tags);
}

// Idle time, the engine's own bookkeeping, and `dispatch` (the inspector call that stops the
// profiler) are not time the subject spent.
const NOT_THE_SUBJECT: ReadonlySet<string> = new Set(['(idle)', '(program)', 'dispatch']);

function topFunctions(summary: ProfileSummary, count: number): string {
  return summary.functions
    .filter((e) => !NOT_THE_SUBJECT.has(e.where))
    .slice(0, count)
    .map((e) => `${e.where} ${(e.share * 100).toFixed(0)} %`)
    .join(', ');
}

/** Self time per MB of input of the busiest functions, in the small and the large profile. */
function growth(
  small: ProfileSummary,
  smallMb: number,
  large: ProfileSummary,
  largeMb: number,
): string {
  const before = new Map(small.functions.map((e) => [e.where, e.selfMs]));
  return large.functions
    .filter((e) => !NOT_THE_SUBJECT.has(e.where))
    .slice(0, 5)
    .map(
      (e) =>
        `${e.where} ${((before.get(e.where) ?? 0) / smallMb).toFixed(2)} → ${(e.selfMs / largeMb).toFixed(2)}`,
    )
    .join(', ');
}

function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

async function inputSection(
  id: string,
  title: string,
  chunk: (d: Dice) => string,
): Promise<Section> {
  const small = generate(chunk, MIB);
  const large = generate(chunk, 4 * MIB);
  const smallMb = Buffer.byteLength(small) / MIB;
  const largeMb = Buffer.byteLength(large) / MIB;
  // neutralizeTags runs on cleaned text in the product; time it alone on that text too, so the
  // two phases can be told apart.
  const cleanedSmall = cleanText(small);
  // Flatten the cleaned text (a regex search does), so neutralizeTags alone is not charged for it.
  /./.test(cleanedSmall);

  const subjects: Subject[] = [];
  for (const [size, input] of [
    ['1 MB', small],
    ['4 MB', large],
  ] as const) {
    subjects.push(
      { name: `strip-ansi ${size}`, input, run: stripAnsi },
      { name: `cleanText ${size}`, input, run: clean },
      { name: `cleanText + neutralizeTags ${size}`, input, run: cleanAndNeutralize },
    );
  }
  subjects.push(
    { name: 'cleanText flattened', input: small, run: cleanFlattened },
    { name: 'neutralizeTags alone', input: cleanedSmall, run: neutralizeOnly },
  );

  const samples = timeRounds(subjects);
  const stats = (name: string) => {
    const times = samples.get(name) ?? [];
    return { ...summarize(times), n: times.length };
  };
  const strip = stats('strip-ansi 1 MB');
  const throughput = (
    name: string,
    label: string,
    mb: number,
    withTarget: boolean,
    note?: string,
    compared = true,
  ): Row => {
    const s = stats(name);
    // A rate from the median time, and from the 95th-percentile time: the slow tail.
    const median = mb / (s.median / 1000);
    // Both subjects read the same input, so the rate ratio is the inverse time ratio.
    const ratio = strip.median / s.median;
    return {
      name: label,
      median,
      p95: mb / (s.p95 / 1000),
      unit: 'MB/s',
      higherIsBetter: true,
      samples: s.n,
      note: note ?? `${s.median.toFixed(1)} ms`,
      ...(name === 'strip-ansi 1 MB' || !compared ? {} : { baseline: 'strip-ansi', ratio }),
      ...(withTarget ? { target: '≥ 1.00× strip-ansi', met: ratio >= 1 } : {}),
    };
  };
  const linearity = (subject: string, withTarget: boolean): Row => {
    const a = stats(`${subject} 1 MB`);
    const b = stats(`${subject} 4 MB`);
    // Normalised by the actual sizes, which differ from 1:4 by a chunk at most.
    const scale = (4 * smallMb) / largeMb;
    const ratio = (b.median / a.median) * scale;
    return {
      name: `4 MB / 1 MB time, ${subject}`,
      median: ratio,
      p95: (b.p95 / a.p95) * scale,
      unit: '×',
      higherIsBetter: false,
      samples: Math.min(a.n, b.n),
      note: `${a.median.toFixed(1)} → ${b.median.toFixed(1)} ms`,
      ...(withTarget ? { target: '≤ 4.5', met: ratio <= 4.5 } : {}),
    };
  };

  const rows: Row[] = [
    throughput('strip-ansi 1 MB', 'strip-ansi, 1 MB', smallMb, false),
    throughput('cleanText 1 MB', 'cleanText, 1 MB', smallMb, true),
    throughput(
      'cleanText + neutralizeTags 1 MB',
      'cleanText + neutralizeTags, 1 MB',
      smallMb,
      true,
    ),
    throughput(
      'cleanText flattened',
      'phase: cleanText, result flattened, 1 MB',
      smallMb,
      false,
      `${stats('cleanText flattened').median.toFixed(1)} ms`,
    ),
    throughput(
      'neutralizeTags alone',
      'phase: neutralizeTags alone, on the cleaned 1 MB',
      Buffer.byteLength(cleanedSmall) / MIB,
      false,
      `${stats('neutralizeTags alone').median.toFixed(1)} ms`,
      false,
    ),
    linearity('cleanText + neutralizeTags', true),
    linearity('cleanText', true),
    linearity('strip-ansi', false),
  ];

  // Where the time goes: a sampled CPU profile of the combined pass over the 1 MB input.
  const combinedProfile = await profile(async () => {
    for (let k = 0; k < PROFILE_PASSES; k++) cleanAndNeutralize(small);
  });
  const largeProfile = await profile(async () => {
    for (let k = 0; k < PROFILE_PASSES / 4; k++) cleanAndNeutralize(large);
  });
  const stripProfile = await profile(async () => {
    for (let k = 0; k < STRIP_PROFILE_PASSES; k++) stripAnsi(small);
  });

  const out = neutralizeTags(cleanedSmall, tags);
  const neutralised = count(out, '\u2039') - count(cleanedSmall, '\u2039');
  const escapes = count(small, ESC);
  const notes = [
    `Input: ${smallMb.toFixed(2)} MB and ${largeMb.toFixed(2)} MB of UTF-8 (${small.length.toLocaleString('en')} UTF-16 units in the 1 MB), generated from seed 0x${SEED.toString(16)}; the 4 MB input starts with the 1 MB one. It holds ${escapes.toLocaleString('en')} ESC characters; cleanText removes ${(small.length - cleanedSmall.length).toLocaleString('en')} code units, neutralizeTags then neutralises ${neutralised.toLocaleString('en')} tags; strip-ansi leaves ${(stripAnsi(small).length - cleanedSmall.length).toLocaleString('en')} more code units than cleanText.`,
    `MB/s is input size / time; "p95" is the rate at the 95th-percentile (slow) time. A full GC runs before every sample; the subjects take turns within each round.`,
    `Profile, cleanText + neutralizeTags, ${PROFILE_PASSES} passes over 1 MB (self time, share of samples): ${topFunctions(combinedProfile, 7)}.`,
    `Profile, strip-ansi, ${STRIP_PROFILE_PASSES} passes over 1 MB: ${topFunctions(stripProfile, 4)}.`,
    `Growth by function, ms per MB in the profile of 1 MB → of 4 MB (${PROFILE_PASSES / 4} passes): ${growth(combinedProfile, PROFILE_PASSES * smallMb, largeProfile, (PROFILE_PASSES / 4) * largeMb)}.`,
  ];
  return { id, title, rows, notes };
}

/**
 * The sanitiser comparison: `cleanText` and `cleanText` + `neutralizeTags` against `strip-ansi`
 * on 1 MB of realistic tool output and on 1 MB of adversarial input, their growth from 1 MB to
 * 4 MB, and a CPU profile of each.
 *
 * @returns One section per input. Targets: at least as fast as strip-ansi; 4 MB / 1 MB ≤ 4.5.
 */
export async function sanitizerSuite(): Promise<Section[]> {
  const realistic = await inputSection(
    'sanitizer-realistic',
    'Sanitiser: realistic tool output (logs, JSON, code, diffs, prose in 13 scripts)',
    realisticChunk,
  );
  const adversarial = await inputSection(
    'sanitizer-adversarial',
    'Sanitiser: adversarial input (dense escapes, invisibles, near-miss tags, fast-path defeaters)',
    adversarialChunk,
  );
  return [realistic, adversarial];
}
