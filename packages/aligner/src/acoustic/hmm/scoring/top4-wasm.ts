// The top-4 selection of the Gaussian kernel in WebAssembly SIMD: for each codebook's row of density
// scores, the four best (value and index), best first.
//
// Branch-free: each of the four SIMD lanes keeps its own sorted four (values and indices in four pairs
// of vectors), and every vector of four scores is pushed through them as a little sorting network
// (compare, then bitselect the larger up and the smaller down). A row of 128 scores is 32 such steps with
// no data-dependent branch; the sixteen lane winners are then merged into the row's four. A version that
// skipped groups below the current fourth-best, seeded with the frame before's four, spent most of its
// time on mispredicted branches (12 cycles a score against about 2 here).
//
// onnxruntime writes the density scores straight into this module's memory (pre-allocated output
// tensors), so no score is copied through JavaScript.
import { assemble, wasmApi } from '../../../wasm/assemble.ts';
import type { Instr, WasmMemory } from '../../../wasm/assemble.ts';

// parameters
const Y = 0; // byte address of the scores: rows of `n` floats, frame-major then codebook
const NT = 1; // frames
const NCB = 2; // codebooks (rows per frame)
const N = 3; // densities per row (a multiple of 4, at least 16)
const LL = 4; // byte address of the output values (float32)
const CW = 5; // byte address of the output indices (uint8)
const OUT = 6; // element index of frame 0, codebook 0 in the outputs
const STRIDE = 7; // elements between consecutive frames in the outputs
const SCRATCH = 8; // byte address of 128 bytes the merge may use
// locals: i32
const T = 9;
const CB = 10;
const ROW = 11;
const O = 12;
const G = 13;
const K = 14;
const CAND = 15;
const I0 = 16;
const I1 = 17;
const I2 = 18;
const I3 = 19;
// f32
const V = 20;
const V0 = 21;
const V1 = 22;
const V2 = 23;
const V3 = 24;
// v128: per lane, the sorted four values (S0 >= S1 >= S2 >= S3) and their indices
const S0 = 25;
const S1 = 26;
const S2 = 27;
const S3 = 28;
const J0 = 29;
const J1 = 30;
const J2 = 31;
const J3 = 32;
const X = 33; // the scores being pushed down
const XI = 34; // their indices
const M = 35; // comparison mask
const IDX = 36; // indices of the current four scores
const FOUR = 37; // i32x4 of 4s
const TMP = 38;
const TMPI = 39;
const SIXTEEN = 40; // i32: the merge's loop limit

const get = (l: number): Instr => ['local.get', l];
const set = (l: number): Instr => ['local.set', l];

/** for (i = from; i < limit; i += step) body, with `limit` a local. */
function forLoop(i: number, from: number, limit: number, step: number, body: Instr[]): Instr[] {
  return [
    ['i32.const', from],
    set(i),
    ['block'],
    ['loop'],
    get(i),
    get(limit),
    ['i32.ge_s'],
    ['br_if', 1],
    ...body,
    get(i),
    ['i32.const', step],
    ['i32.add'],
    set(i),
    ['br', 0],
    ['end'],
    ['end'],
  ];
}

/**
 * One level of the lanes' networks: where X beats the level's S, X takes its place (value and index) and
 * the old S goes on down as X; at the last level the loser is dropped.
 */
function step(s: number, j: number, last: boolean): Instr[] {
  const out: Instr[] = [get(X), get(s), ['f32x4.gt'], set(M)];
  // the losers first (m ? S : X), before S changes
  if (!last)
    out.push(
      get(s),
      get(X),
      get(M),
      ['v128.bitselect'],
      set(TMP),
      get(j),
      get(XI),
      get(M),
      ['v128.bitselect'],
      set(TMPI),
    );
  // the winners (m ? X : S)
  out.push(get(X), get(s), get(M), ['v128.bitselect'], set(s));
  out.push(get(XI), get(j), get(M), ['v128.bitselect'], set(j));
  if (!last) out.push(get(TMP), set(X), get(TMPI), set(XI));
  return out;
}

/** V, CAND (a lane winner) into the sorted four V0..V3 / I0..I3 when it beats the fourth. */
const consider: Instr[] = [
  get(V),
  get(V3),
  ['f32.gt'],
  ['if'],
  get(V),
  get(V1),
  ['f32.gt'],
  ['if'],
  get(V2),
  set(V3),
  get(I2),
  set(I3),
  get(V1),
  set(V2),
  get(I1),
  set(I2),
  get(V),
  get(V0),
  ['f32.gt'],
  ['if'],
  get(V0),
  set(V1),
  get(I0),
  set(I1),
  get(V),
  set(V0),
  get(CAND),
  set(I0),
  ['else'],
  get(V),
  set(V1),
  get(CAND),
  set(I1),
  ['end'],
  ['else'],
  get(V),
  get(V2),
  ['f32.gt'],
  ['if'],
  get(V2),
  set(V3),
  get(I2),
  set(I3),
  get(V),
  set(V2),
  get(CAND),
  set(I2),
  ['else'],
  get(V),
  set(V3),
  get(CAND),
  set(I3),
  ['end'],
  ['end'],
  ['end'],
];

const NEG_INF: Instr[] = [['f32.const', -Infinity], ['f32x4.splat']];

const rowBody: Instr[] = [
  // row = Y + ((t * nCb + cb) * n) * 4; o = OUT + t * STRIDE + cb * 4
  get(Y),
  get(T),
  get(NCB),
  ['i32.mul'],
  get(CB),
  ['i32.add'],
  get(N),
  ['i32.mul'],
  ['i32.const', 2],
  ['i32.shl'],
  ['i32.add'],
  set(ROW),
  get(OUT),
  get(T),
  get(STRIDE),
  ['i32.mul'],
  ['i32.add'],
  get(CB),
  ['i32.const', 2],
  ['i32.shl'],
  ['i32.add'],
  set(O),
  ...NEG_INF,
  set(S0),
  ...NEG_INF,
  set(S1),
  ...NEG_INF,
  set(S2),
  ...NEG_INF,
  set(S3),
  // indices [0, 1, 2, 3]
  ['i32.const', 0],
  ['i32x4.splat'],
  ['i32.const', 1],
  ['i32x4.replace_lane', 1],
  ['i32.const', 2],
  ['i32x4.replace_lane', 2],
  ['i32.const', 3],
  ['i32x4.replace_lane', 3],
  set(IDX),
  ['i32.const', 0],
  ['i32x4.splat'],
  set(J0),
  ['i32.const', 0],
  ['i32x4.splat'],
  set(J1),
  ['i32.const', 0],
  ['i32x4.splat'],
  set(J2),
  ['i32.const', 0],
  ['i32x4.splat'],
  set(J3),
  // every four scores through the lanes' networks
  ...forLoop(G, 0, N, 4, [
    get(ROW),
    get(G),
    ['i32.const', 2],
    ['i32.shl'],
    ['i32.add'],
    ['v128.load', 2, 0],
    set(X),
    get(IDX),
    set(XI),
    ...step(S0, J0, false),
    ...step(S1, J1, false),
    ...step(S2, J2, false),
    ...step(S3, J3, true),
    get(IDX),
    get(FOUR),
    ['i32x4.add'],
    set(IDX),
  ]),
  // the sixteen lane winners (values, then indices) to the scratch area, merged one by one
  ...[S0, S1, S2, S3].flatMap((s, k): Instr[] => [get(SCRATCH), get(s), ['v128.store', 2, k * 16]]),
  ...[J0, J1, J2, J3].flatMap((j, k): Instr[] => [get(SCRATCH), get(j), ['v128.store', 2, 64 + k * 16]]),
  ['f32.const', -Infinity],
  set(V0),
  ['f32.const', -Infinity],
  set(V1),
  ['f32.const', -Infinity],
  set(V2),
  ['f32.const', -Infinity],
  set(V3),
  ['i32.const', 0],
  set(I0),
  ['i32.const', 0],
  set(I1),
  ['i32.const', 0],
  set(I2),
  ['i32.const', 0],
  set(I3),
  ...forLoop(K, 0, SIXTEEN, 1, [
    get(SCRATCH),
    get(K),
    ['i32.const', 2],
    ['i32.shl'],
    ['i32.add'],
    set(CAND),
    get(CAND),
    ['f32.load', 2, 0],
    set(V),
    get(CAND),
    ['i32.load', 2, 64],
    set(CAND),
    ...consider,
  ]),
  // out: values at LL + o * 4, indices at CW + o
  ...([V0, V1, V2, V3] as const).flatMap((v, k): Instr[] => [
    get(LL),
    get(O),
    ['i32.const', 2],
    ['i32.shl'],
    ['i32.add'],
    get(v),
    ['f32.store', 2, k * 4],
  ]),
  ...([I0, I1, I2, I3] as const).flatMap((ix, k): Instr[] => [
    get(CW),
    get(O),
    ['i32.add'],
    get(ix),
    ['i32.store8', 0, k],
  ]),
];

const body: Instr[] = [
  ['i32.const', 4],
  ['i32x4.splat'],
  set(FOUR),
  ['i32.const', 16],
  set(SIXTEEN),
  ...forLoop(T, 0, NT, 1, forLoop(CB, 0, NCB, 1, rowBody)),
];

export interface Top4Module {
  memory: WasmMemory;
  /** see the parameter list at the top of this file */
  top4(
    y: number,
    nT: number,
    nCb: number,
    n: number,
    ll: number,
    cw: number,
    out: number,
    stride: number,
    scratch: number,
  ): void;
}

let compiled: object | null = null;

/** A fresh instance with its own memory; null where WebAssembly SIMD is not available. */
export function top4Module(): Top4Module | null {
  try {
    compiled ??= new wasmApi.Module(
      assemble([
        {
          name: 'top4',
          params: ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'],
          results: [],
          locals: [
            ...Array<'i32'>(11).fill('i32'), // T CB ROW O G K CAND I0..I3
            ...Array<'f32'>(5).fill('f32'), // V V0..V3
            ...Array<'v128'>(15).fill('v128'), // S0..S3 J0..J3 X XI M IDX FOUR TMP TMPI
            'i32', // SIXTEEN
          ],
          body,
        },
      ]),
    );
    const memory = new wasmApi.Memory({ initial: 1 });
    const inst = new wasmApi.Instance(compiled, { env: { memory } });
    return { memory, top4: inst.exports.top4 as Top4Module['top4'] };
  } catch {
    return null;
  }
}
