// A vector scanner that finds, in a block of text, the code units the fused pass of
// cleanAndNeutralize has to look at, sixteen at a time.
//
// The regex engine looks at ordinary text one code unit at a time, at best about as fast as
// strip-ansi's own search; on realistic tool output the fused pass spent most of its time there
// and in re-entering the engine after every escape sequence. Here the block is copied into
// WebAssembly memory (Node's UTF-16 write, a plain copy) and a small SIMD loop keeps only the
// positions whose table kind is not "keep": on ordinary text a handful per line at most. What to
// do at each position stays in TypeScript, in clean-and-neutralize.ts; this file only finds them.
//
// The module is a few hundred bytes, assembled below from named opcodes (no build step, nothing
// fetched). Where WebAssembly with SIMD or Node's Buffer is missing, `createBlockScanner` returns
// undefined and the caller keeps its regex scan.

/** Code units per block (the module's memory is laid out for this many). */
export const BLOCK_UNITS = 32768;

// Memory layout, in bytes: the kind table (one byte per BMP code unit), the block as UTF-16LE,
// then the positions found, one u32 each. Four 64 KiB pages in all.
const TABLE = 0;
const INPUT = 0x10000;
const EVENTS = INPUT + 2 * BLOCK_UNITS;
const PAGES = (EVENTS + 4 * BLOCK_UNITS) / 0x10000;

/** Finds the positions of a block that need work; see {@link createBlockScanner}. @internal */
export interface BlockScanner {
  /**
   * Copies `text[from, from + length)` (at most {@link BLOCK_UNITS}) into the scanner and returns
   * how many positions it found; they are the first entries of {@link BlockScanner.events},
   * ascending, relative to `from`. The next call overwrites them.
   */
  scan(text: string, from: number, length: number): number;
  /** The positions of the last scan. */
  readonly events: Uint32Array;
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

// The opcodes used, by their names in the WebAssembly text format.
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  tee: (local: number) => [0x22, local],
  i32Const: (value: number) => [0x41, ...sleb(value)],
  i32Load8U: (offset: number) => [0x2d, 0, ...uleb(offset)],
  i32Load16U: (offset: number) => [0x2f, 1, ...uleb(offset)],
  i32Store: (offset: number) => [0x36, 2, ...uleb(offset)],
  i32GtU: [0x4b],
  i32GeU: [0x4f],
  i32Ctz: [0x68],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32And: [0x71],
  i32Or: [0x72],
  i32Shl: [0x74],
  v128Load: (offset: number) => [0xfd, 0x00, 0, ...uleb(offset)],
  i8x16Splat: [0xfd, 0x0f],
  i8x16Eq: [0xfd, 0x23],
  i8x16LtS: [0xfd, 0x25],
  v128AndNot: [0xfd, 0x4f],
  v128Or: [0xfd, 0x50],
  i8x16Bitmask: [0xfd, 0x64],
  i8x16NarrowI16x8U: [0xfd, 0x66],
} as const;

// Locals: the parameter (the block's length in code units), then i32 and v128 locals.
const N = 0;
const I = 1;
const COUNT = 2;
const BITS = 3;
const AT = 4;
const V = 5;
const C20 = 6;
const C09 = 7;
const C0A = 8;
const C7F = 9;
const C3C = 10;

/** The code unit at `AT`: if its table kind is not 0 (keep), append AT to the events. */
function checkAt(): number[] {
  return [
    ...op.get(AT),
    ...op.i32Const(1),
    ...op.i32Shl,
    ...op.i32Load16U(INPUT),
    ...op.i32Load8U(TABLE),
    ...op.if,
    ...op.get(COUNT),
    ...op.i32Const(2),
    ...op.i32Shl,
    ...op.get(AT),
    ...op.i32Store(EVENTS),
    ...op.get(COUNT),
    ...op.i32Const(1),
    ...op.i32Add,
    ...op.set(COUNT),
    ...op.end,
  ];
}

function splat(value: number, local: number): number[] {
  return [...op.i32Const(value), ...op.i8x16Splat, ...op.set(local)];
}

/**
 * The flags of the 16 code units at byte `offset` past unit I, as 16 bits: both halves narrowed
 * to bytes with unsigned saturation (0–255 stay, 256–32767 become 255, 32768 and up, negative as
 * i16, become 0: never a byte of ordinary ASCII), then flagged when below 0x20 as a signed byte
 * (0x00–0x1f, and 0x80–0xff: every narrowed non-ASCII unit) other than tab and newline, DEL or
 * `<`. Signed byte compares and equality are what the hardware has.
 */
function flags(offset: number): number[] {
  return [
    ...op.get(I),
    ...op.i32Const(1),
    ...op.i32Shl,
    ...op.v128Load(INPUT + offset),
    ...op.get(I),
    ...op.i32Const(1),
    ...op.i32Shl,
    ...op.v128Load(INPUT + offset + 16),
    ...op.i8x16NarrowI16x8U,
    ...op.set(V),
    ...op.get(V),
    ...op.get(C20),
    ...op.i8x16LtS,
    ...op.get(V),
    ...op.get(C09),
    ...op.i8x16Eq,
    ...op.get(V),
    ...op.get(C0A),
    ...op.i8x16Eq,
    ...op.v128Or,
    ...op.v128AndNot,
    ...op.get(V),
    ...op.get(C7F),
    ...op.i8x16Eq,
    ...op.v128Or,
    ...op.get(V),
    ...op.get(C3C),
    ...op.i8x16Eq,
    ...op.v128Or,
    ...op.i8x16Bitmask,
  ];
}

/**
 * scan(n): for each group of 32 code units, the flags of its two halves ({@link flags}) as one
 * word of bits; each flagged position is then looked up in the table, exactly. So every code unit
 * whose kind is not keep is found: the ones never flagged are tab, newline and printable ASCII
 * other than `<`, which the table keeps. The last n % 32 units go through the table alone.
 */
function scanBody(): number[] {
  return [
    ...splat(0x20, C20),
    ...splat(0x09, C09),
    ...splat(0x0a, C0A),
    ...splat(0x7f, C7F),
    ...splat(0x3c, C3C),
    // Groups of 32: two masks of 16, one word of bits.
    ...op.block,
    ...op.loop,
    ...op.get(I),
    ...op.i32Const(32),
    ...op.i32Add,
    ...op.get(N),
    ...op.i32GtU,
    ...op.brIf(1),
    ...flags(0),
    ...flags(32),
    ...op.i32Const(16),
    ...op.i32Shl,
    ...op.i32Or,
    ...op.tee(BITS),
    ...op.if,
    ...op.loop,
    ...op.get(I),
    ...op.get(BITS),
    ...op.i32Ctz,
    ...op.i32Add,
    ...op.set(AT),
    ...checkAt(),
    // Clear the lowest bit; go on while any is left.
    ...op.get(BITS),
    ...op.get(BITS),
    ...op.i32Const(1),
    ...op.i32Sub,
    ...op.i32And,
    ...op.tee(BITS),
    ...op.brIf(0),
    ...op.end,
    ...op.end,
    ...op.get(I),
    ...op.i32Const(32),
    ...op.i32Add,
    ...op.set(I),
    ...op.br(0),
    ...op.end,
    ...op.end,
    // The rest, one at a time.
    ...op.block,
    ...op.loop,
    ...op.get(I),
    ...op.get(N),
    ...op.i32GeU,
    ...op.brIf(1),
    ...op.get(I),
    ...op.set(AT),
    ...checkAt(),
    ...op.get(I),
    ...op.i32Const(1),
    ...op.i32Add,
    ...op.set(I),
    ...op.br(0),
    ...op.end,
    ...op.end,
    ...op.get(COUNT),
    ...op.end,
  ];
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function name(text: string): number[] {
  return [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
}

/** The module: one function `scan(i32) -> i32` and its memory, both exported. */
function moduleBytes(): Uint8Array {
  const I32 = 0x7f;
  const V128 = 0x7b;
  // Local declarations: 4 × i32 (I, COUNT, BITS, AT), 6 × v128 (V and the constants).
  const body = [2, 4, I32, 6, V128, ...scanBody()];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 1, I32, 1, I32]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0x00, ...uleb(PAGES)]),
    ...section(7, [2, ...name('scan'), 0x00, 0, ...name('memory'), 0x02, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

// The two runtime APIs used, typed here: the package's types cover Node's, not the web's.
interface NodeBuffer {
  write(text: string, offset: number, length: number, encoding: 'utf16le'): number;
}
interface BufferApi {
  from(buffer: ArrayBuffer, offset: number, length: number): NodeBuffer;
}
interface WebAssemblyApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { readonly exports: Record<string, unknown> };
}

/**
 * A scanner for the given kind table (65,536 entries, 0 for a code unit that needs no work), or
 * `undefined` where this runtime lacks WebAssembly SIMD or Node's `Buffer` (whose UTF-16 write
 * copies a string's code units as they are, lone surrogates included).
 * @internal
 */
export function createBlockScanner(table: Uint8Array): BlockScanner | undefined {
  const { Buffer, WebAssembly } = globalThis as {
    Buffer?: BufferApi;
    WebAssembly?: WebAssemblyApi;
  };
  if (typeof WebAssembly?.Instance !== 'function' || typeof Buffer?.from !== 'function') {
    return undefined;
  }
  let exports: Record<string, unknown>;
  try {
    const bytes = moduleBytes();
    if (!WebAssembly.validate(bytes)) return undefined;
    exports = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
  } catch {
    // WebAssembly compilation refused (a content security policy, say): the regex scan is used.
    return undefined;
  }
  const scan = exports.scan as (n: number) => number;
  const memory = (exports.memory as { readonly buffer: ArrayBuffer }).buffer;
  new Uint8Array(memory, TABLE, 0x10000).set(table);
  const input = Buffer.from(memory, INPUT, 2 * BLOCK_UNITS);
  const events = new Uint32Array(memory, EVENTS, BLOCK_UNITS);
  return {
    events,
    scan(text, from, length) {
      const block = from === 0 && length === text.length ? text : text.slice(from, from + length);
      input.write(block, 0, 2 * length, 'utf16le');
      return scan(length);
    },
  };
}
