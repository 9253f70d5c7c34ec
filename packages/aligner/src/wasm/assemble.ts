// A small WebAssembly assembler: enough of the binary format (types, an imported memory, functions and
// their exports) and of the instruction set (integer and float arithmetic, loads and stores, structured
// control flow, a few SIMD instructions) to write the engine's hot inner loops as WebAssembly without a
// compiler toolchain. Instructions are written as mnemonics with their immediates, e.g.
// ['local.get', 0], ['f32.load', 2, 0], ['block'], ['br_if', 0], ['end'].

/** The parts of the WebAssembly JavaScript API used here (the project's lib settings do not declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ) => {
    exports: Record<string, unknown>;
  };
  Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
}
export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

export type ValType = 'i32' | 'f32' | 'v128';
const VALTYPE: Record<ValType, number> = { i32: 0x7f, f32: 0x7d, v128: 0x7b };

export type Instr = [string, ...number[]];

/** Opcodes without immediates, and those taking the listed immediates (u: unsigned LEB, s: signed LEB,
 * f: a float32, m: a memory argument of alignment and offset, b: an empty block type, l: a lane index
 * byte). A prefixed opcode's second number is written as an unsigned LEB. */
const OPS: Record<string, { code: number[]; imm: string }> = {
  unreachable: { code: [0x00], imm: '' },
  nop: { code: [0x01], imm: '' },
  block: { code: [0x02], imm: 'b' },
  loop: { code: [0x03], imm: 'b' },
  if: { code: [0x04], imm: 'b' },
  else: { code: [0x05], imm: '' },
  end: { code: [0x0b], imm: '' },
  br: { code: [0x0c], imm: 'u' },
  br_if: { code: [0x0d], imm: 'u' },
  return: { code: [0x0f], imm: '' },
  drop: { code: [0x1a], imm: '' },
  select: { code: [0x1b], imm: '' },
  'local.get': { code: [0x20], imm: 'u' },
  'local.set': { code: [0x21], imm: 'u' },
  'local.tee': { code: [0x22], imm: 'u' },
  'i32.load': { code: [0x28], imm: 'm' },
  'f32.load': { code: [0x2a], imm: 'm' },
  'i32.load8_u': { code: [0x2d], imm: 'm' },
  'i32.load16_u': { code: [0x2f], imm: 'm' },
  'i32.store': { code: [0x36], imm: 'm' },
  'f32.store': { code: [0x38], imm: 'm' },
  'i32.store8': { code: [0x3a], imm: 'm' },
  'i32.const': { code: [0x41], imm: 's' },
  'f32.const': { code: [0x43], imm: 'f' },
  'i32.eqz': { code: [0x45], imm: '' },
  'i32.eq': { code: [0x46], imm: '' },
  'i32.ne': { code: [0x47], imm: '' },
  'i32.lt_s': { code: [0x48], imm: '' },
  'i32.lt_u': { code: [0x49], imm: '' },
  'i32.gt_s': { code: [0x4a], imm: '' },
  'i32.le_s': { code: [0x4c], imm: '' },
  'i32.ge_s': { code: [0x4e], imm: '' },
  'f32.eq': { code: [0x5b], imm: '' },
  'f32.lt': { code: [0x5d], imm: '' },
  'f32.gt': { code: [0x5e], imm: '' },
  'f32.le': { code: [0x5f], imm: '' },
  'f32.ge': { code: [0x60], imm: '' },
  'i32.add': { code: [0x6a], imm: '' },
  'i32.sub': { code: [0x6b], imm: '' },
  'i32.mul': { code: [0x6c], imm: '' },
  'i32.and': { code: [0x71], imm: '' },
  'i32.or': { code: [0x72], imm: '' },
  'i32.shl': { code: [0x74], imm: '' },
  'i32.shr_s': { code: [0x75], imm: '' },
  'f32.add': { code: [0x92], imm: '' },
  'f32.sub': { code: [0x93], imm: '' },
  'f32.mul': { code: [0x94], imm: '' },
  'f32.min': { code: [0x96], imm: '' },
  'f32.max': { code: [0x97], imm: '' },
  'v128.load': { code: [0xfd, 0x00], imm: 'm' },
  'f32x4.splat': { code: [0xfd, 0x13], imm: '' },
  'f32x4.gt': { code: [0xfd, 0x44], imm: '' },
  // pseudo-maximum (b > a ? b : a, no NaN rule): one maxps
  'f32x4.pmax': { code: [0xfd, 0xeb], imm: '' },
  'v128.any_true': { code: [0xfd, 0x53], imm: '' },
  'v128.store': { code: [0xfd, 0x0b], imm: 'm' },
  'v128.bitselect': { code: [0xfd, 0x52], imm: '' },
  'i32x4.splat': { code: [0xfd, 0x11], imm: '' },
  'i32x4.replace_lane': { code: [0xfd, 0x1c], imm: 'l' },
  'i32x4.add': { code: [0xfd, 0xae], imm: '' },
};

function uleb(n: number, out: number[]): void {
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
}

function sleb(n: number, out: number[]): void {
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return;
    }
    out.push(b | 0x80);
  }
}

function encodeInstr(ins: Instr, out: number[]): void {
  const [name, ...args] = ins;
  const op = OPS[name];
  if (!op) throw new Error(`unknown instruction ${name}`);
  out.push(op.code[0]!);
  if (op.code.length > 1) uleb(op.code[1]!, out);
  switch (op.imm) {
    case 'b':
      out.push(0x40);
      break;
    case 'u':
      uleb(args[0]!, out);
      break;
    case 's':
      sleb(args[0]!, out);
      break;
    case 'f': {
      const b = new Uint8Array(4);
      new DataView(b.buffer).setFloat32(0, args[0]!, true);
      out.push(...b);
      break;
    }
    case 'm':
      uleb(args[0]!, out);
      uleb(args[1] ?? 0, out);
      break;
    case 'l':
      out.push(args[0]!);
      break;
  }
}

export interface WasmFunction {
  name: string;
  params: ValType[];
  results: ValType[];
  /** extra locals, after the parameters */
  locals: ValType[];
  body: Instr[];
}

function section(id: number, content: number[], out: number[]): void {
  out.push(id);
  uleb(content.length, out);
  out.push(...content);
}

function name(s: string, out: number[]): void {
  const b = new TextEncoder().encode(s);
  uleb(b.length, out);
  out.push(...b);
}

/** A module importing memory "env"."memory" and exporting the given functions. */
export function assemble(functions: WasmFunction[]): Uint8Array {
  const out = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const types: number[] = [];
  uleb(functions.length, types);
  for (const f of functions) {
    types.push(0x60);
    uleb(f.params.length, types);
    for (const p of f.params) types.push(VALTYPE[p]);
    uleb(f.results.length, types);
    for (const r of f.results) types.push(VALTYPE[r]);
  }
  section(1, types, out);
  const imports: number[] = [1];
  name('env', imports);
  name('memory', imports);
  imports.push(0x02, 0x00, 0x01);
  section(2, imports, out);
  const funcs: number[] = [];
  uleb(functions.length, funcs);
  functions.forEach((_, i) => uleb(i, funcs));
  section(3, funcs, out);
  const exports: number[] = [];
  uleb(functions.length, exports);
  functions.forEach((f, i) => {
    name(f.name, exports);
    exports.push(0x00);
    uleb(i, exports);
  });
  section(7, exports, out);
  const code: number[] = [];
  uleb(functions.length, code);
  for (const f of functions) {
    const body: number[] = [];
    uleb(f.locals.length, body);
    for (const l of f.locals) {
      body.push(1);
      body.push(VALTYPE[l]);
    }
    for (const ins of f.body) encodeInstr(ins, body);
    body.push(0x0b);
    uleb(body.length, code);
    code.push(...body);
  }
  section(10, code, out);
  return Uint8Array.from(out);
}
