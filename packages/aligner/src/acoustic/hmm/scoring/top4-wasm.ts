// The top-4 selection of the Gaussian kernel in WebAssembly SIMD: for each codebook's row of density
// scores, the four best (value and index), seeded with the previous frame's four. Four densities are
// compared with the current fourth-best at once, so a row costs about a quarter of the comparisons of the
// JavaScript loop and insertions are rare. onnxruntime writes the density scores straight into this
// module's memory (pre-allocated output tensors), so no score is copied through JavaScript.
import { assemble, wasmApi } from '../../../wasm/assemble.ts';
import type { Instr, WasmMemory } from '../../../wasm/assemble.ts';

// parameters
const Y = 0; // byte address of the scores: rows of `n` floats, frame-major then codebook
const NT = 1; // frames
const NCB = 2; // codebooks (rows per frame)
const N = 3; // densities per row (a multiple of 4)
const LL = 4; // byte address of the output values (float32)
const CW = 5; // byte address of the output indices (uint8)
const OUT = 6; // element index of frame 0, codebook 0 in the outputs
const STRIDE = 7; // elements between consecutive frames in the outputs
const PREV = 8; // 1: the outputs hold the frame before frame 0 (seeds for it)
// locals
const T = 9;
const CB = 10;
const ROW = 11;
const O = 12;
const G = 13;
const J = 14;
const V = 15; // f32
const V0 = 16; // f32 x4
const V1 = 17;
const V2 = 18;
const V3 = 19;
const I0 = 20; // i32 x4
const I1 = 21;
const I2 = 22;
const I3 = 23;
const CAND = 24;

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

/** v (local V) with index CAND into the sorted four, when it beats the fourth and is not one of them. */
const consider: Instr[] = [
  get(V),
  get(V3),
  ['f32.gt'],
  get(CAND),
  get(I0),
  ['i32.ne'],
  ['i32.and'],
  get(CAND),
  get(I1),
  ['i32.ne'],
  ['i32.and'],
  get(CAND),
  get(I2),
  ['i32.ne'],
  ['i32.and'],
  get(CAND),
  get(I3),
  ['i32.ne'],
  ['i32.and'],
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

/** V = the score of density CAND in the current row. */
const loadCand: Instr[] = [
  get(ROW),
  get(CAND),
  ['i32.const', 2],
  ['i32.shl'],
  ['i32.add'],
  ['f32.load', 2, 0],
  set(V),
];

const FOUR = 30; // a local holding 4 (loop limit)

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
  ['f32.const', -Infinity],
  set(V0),
  ['f32.const', -Infinity],
  set(V1),
  ['f32.const', -Infinity],
  set(V2),
  ['f32.const', -Infinity],
  set(V3),
  ['i32.const', -1],
  set(I0),
  ['i32.const', -1],
  set(I1),
  ['i32.const', -1],
  set(I2),
  ['i32.const', -1],
  set(I3),
  // seeds: the same codebook's four best of the frame before
  get(T),
  ['i32.const', 0],
  ['i32.gt_s'],
  get(PREV),
  ['i32.or'],
  ['if'],
  ...forLoop(J, 0, FOUR, 1, [
    get(CW),
    get(O),
    ['i32.add'],
    get(STRIDE),
    ['i32.sub'],
    get(J),
    ['i32.add'],
    ['i32.load8_u', 0, 0],
    set(CAND),
    ...loadCand,
    ...consider,
  ]),
  ['end'],
  // every density, four at a time: only a group with one above the fourth-best is looked at
  ...forLoop(G, 0, N, 4, [
    get(ROW),
    get(G),
    ['i32.const', 2],
    ['i32.shl'],
    ['i32.add'],
    ['v128.load', 2, 0],
    get(V3),
    ['f32x4.splat'],
    ['f32x4.gt'],
    ['v128.any_true'],
    ['if'],
    ...forLoop(J, 0, FOUR, 1, [get(G), get(J), ['i32.add'], set(CAND), ...loadCand, ...consider]),
    ['end'],
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

const body: Instr[] = [['i32.const', 4], set(FOUR), ...forLoop(T, 0, NT, 1, forLoop(CB, 0, NCB, 1, rowBody))];

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
    prev: number,
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
          // T CB ROW O G J, V V0..V3, I0..I3 CAND, 5 spare, FOUR
          locals: [
            'i32',
            'i32',
            'i32',
            'i32',
            'i32',
            'i32',
            'f32',
            'f32',
            'f32',
            'f32',
            'f32',
            'i32',
            'i32',
            'i32',
            'i32',
            'i32',
            'i32',
            'i32',
            'i32',
            'i32',
            'i32',
            'i32',
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
