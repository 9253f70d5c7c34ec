// The model definition (mdef): the model's context-independent phones, its triphones (a base phone in a
// left and right context at a word position) and the senone sequence and transition matrix of each.
// Read from the binary "BMDF" form CMU ships (bin_mdef.c's layout) or the text form ("0.3" header, one
// row per phone); written in the text form by model adaptation when it adds phones.
import { EngineError } from '../../../errors.ts';

/** Word positions, in the order and with the codes the Sphinx formats use. */
export const WPOS = { internal: 0, begin: 1, end: 2, single: 3 } as const;
export type WordPosition = (typeof WPOS)[keyof typeof WPOS];
const WPOS_CODES = 'ibes';

export interface ModelDefinition {
  ciPhones: string[];
  /** CI phone index by name */
  ciIndex: Map<string, number>;
  /** per CI phone: a filler (silence, noise) rather than a speech sound */
  filler: boolean[];
  /** CI index of the silence phone (-1 when the model has none) */
  sil: number;
  nEmitState: number;
  nCiSenones: number;
  nSenones: number;
  nTmat: number;
  /** per phone (CI phones first, then triphones): senone sequence id and transition matrix */
  phoneSseq: Int32Array;
  phoneTmat: Int32Array;
  /** per phone: base CI phone */
  phoneBase: Int32Array;
  /** senone sequences: sseq s holds senones [s * nEmitState, (s + 1) * nEmitState) */
  sseq: Int32Array;
  /** per senone: the CI phone whose codebook scores it (PTM models) */
  senoneCi: Int32Array;
  /** triphone lookup: key (wpos, ci, lc, rc) -> phone id */
  triphones: TriphoneTable;
  /**
   * per CI phone: the phone whose triphones it stands for as a neighbour's context. A phone an adapted
   * model added (adapt/extend.ts) has no triphones of its own: beside it, other phones take the contexts
   * of the phone it was cloned from. Absent: every phone is its own context.
   */
  contextOf?: Int32Array;
}

function bad(path: string, why: string): EngineError {
  return new EngineError('engine_fault', `the model definition ${path} cannot be read: ${why}`);
}

export function triphoneKey(nCi: number, wpos: number, ci: number, lc: number, rc: number): number {
  return ((wpos * nCi + ci) * nCi + lc) * nCi + rc;
}

/**
 * The triphones of a model by (word position, base, left, right), in typed arrays: a row of right
 * contexts for each (position, base, left) that has any. Reading a model fills it with over a hundred
 * thousand entries on every start, which a Map took about 0.1 s of CPU to do (and a batch's peak RSS
 * 254 against 230 MiB).
 * Read as a Map of triphoneKey() to phone id (get, size, iteration in row order).
 */
export class TriphoneTable {
  /** row of each (wpos, ci, lc), -1: none */
  private readonly rowOf: Int32Array;
  /** phone ids, nCi per row, -1: no such triphone */
  private cells: Int32Array;
  private nRows = 0;
  private count = 0;

  constructor(private readonly nCi: number) {
    this.rowOf = new Int32Array(4 * nCi * nCi).fill(-1);
    this.cells = new Int32Array(64 * nCi).fill(-1);
  }

  get size(): number {
    return this.count;
  }

  private inRange(wpos: number, ci: number, lc: number, rc: number): boolean {
    const { nCi } = this;
    return wpos >= 0 && wpos <= 3 && ci >= 0 && ci < nCi && lc >= 0 && lc < nCi && rc >= 0 && rc < nCi;
  }

  /** The phone id of a triphone, or -1. */
  lookup(wpos: number, ci: number, lc: number, rc: number): number {
    const { nCi } = this;
    if (!this.inRange(wpos, ci, lc, rc)) return -1;
    const row = this.rowOf[(wpos * nCi + ci) * nCi + lc]!;
    return row < 0 ? -1 : this.cells[row * nCi + rc]!;
  }

  /** Adds a triphone; false (and nothing added) when a context is outside the table's phones. */
  add(wpos: number, ci: number, lc: number, rc: number, pid: number): boolean {
    const { nCi } = this;
    if (!this.inRange(wpos, ci, lc, rc)) return false;
    const at = (wpos * nCi + ci) * nCi + lc;
    let row = this.rowOf[at]!;
    if (row < 0) {
      row = this.rowOf[at] = this.nRows++;
      if (this.nRows * nCi > this.cells.length) {
        const grown = new Int32Array(2 * this.cells.length).fill(-1);
        grown.set(this.cells);
        this.cells = grown;
      }
    }
    if (this.cells[row * nCi + rc]! < 0) this.count++;
    this.cells[row * nCi + rc] = pid;
    return true;
  }

  get(key: number): number | undefined {
    const { nCi } = this;
    const rc = key % nCi;
    const rest = (key - rc) / nCi;
    const lc = rest % nCi;
    const head = (rest - lc) / nCi;
    const ci = head % nCi;
    const wpos = (head - ci) / nCi;
    const pid = this.lookup(wpos, ci, lc, rc);
    return pid < 0 ? undefined : pid;
  }

  /** Every triphone with its contexts, row by row. */
  *contexts(): IterableIterator<{ wpos: number; ci: number; lc: number; rc: number; pid: number }> {
    const { nCi } = this;
    const rows: number[] = [];
    this.rowOf.forEach((row, at) => {
      if (row >= 0) rows[row] = at;
    });
    for (let row = 0; row < this.nRows; row++) {
      const at = rows[row]!;
      const lc = at % nCi;
      const ci = ((at - lc) / nCi) % nCi;
      const wpos = (at - lc - ci * nCi) / (nCi * nCi);
      for (let rc = 0; rc < nCi; rc++) {
        const pid = this.cells[row * nCi + rc]!;
        if (pid >= 0) yield { wpos, ci, lc, rc, pid };
      }
    }
  }

  *entries(): IterableIterator<[number, number]> {
    for (const t of this.contexts()) yield [triphoneKey(this.nCi, t.wpos, t.ci, t.lc, t.rc), t.pid];
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  *values(): IterableIterator<number> {
    for (const [, pid] of this.entries()) yield pid;
  }
}

export function readMdef(bytes: Uint8Array, path: string): ModelDefinition {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(4, bytes.length)).toString('latin1');
  return head === 'BMDF' ? readBinaryMdef(bytes, path) : readTextMdef(bytes, path);
}

function readBinaryMdef(bytes: Uint8Array, path: string): ModelDefinition {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 64) throw bad(path, 'truncated');
  // "BMDF" as a little-endian int32, then version and the length of the format description.
  const headerLength = v.getInt32(8, true);
  let p = 12 + headerLength;
  const ints = (n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++, p += 4) out.push(v.getInt32(p, true));
    return out;
  };
  const [nCi, nPhone, nEmit, nCiSen, nSen, nTmat, nSseq, , nCdTree, sil] = ints(10) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (nCi <= 0 || nCi > 255 || nPhone < nCi || nSseq <= 0) throw bad(path, 'implausible counts');
  if (nEmit === 0) throw bad(path, 'models with a different number of states per phone are not supported');
  const namesStart = p;
  const ciPhones: string[] = [];
  for (let i = 0; i < nCi; i++) {
    const end = bytes.indexOf(0, p);
    if (end < 0) throw bad(path, 'unterminated phone name');
    ciPhones.push(Buffer.from(bytes.buffer, bytes.byteOffset + p, end - p).toString('latin1'));
    p = end + 1;
  }
  p = namesStart + ((p - namesStart + 3) & ~3);
  const treeStart = p;
  p += nCdTree * 8;
  const phoneSseq = new Int32Array(nPhone);
  const phoneTmat = new Int32Array(nPhone);
  const attr = new Uint8Array(nPhone * 4);
  for (let i = 0; i < nPhone; i++, p += 12) {
    phoneSseq[i] = v.getInt32(p, true);
    phoneTmat[i] = v.getInt32(p + 4, true);
    for (let j = 0; j < 4; j++) attr[i * 4 + j] = bytes[p + 8 + j]!;
  }
  const sseqSize = v.getInt32(p, true);
  p += 4;
  if (sseqSize !== nSseq * nEmit) throw bad(path, 'senone sequence table size');
  const sseq = new Int32Array(sseqSize);
  for (let i = 0; i < sseqSize; i++) sseq[i] = v.getUint16(p + i * 2, true);
  const filler = ciPhones.map((_, i) => attr[i * 4] !== 0);
  // CD phones: attr = wpos, then the (base, left, right) context.
  const phoneBase = new Int32Array(nPhone);
  for (let i = 0; i < nPhone; i++) phoneBase[i] = i < nCi ? i : attr[i * 4 + 1]!;
  // The context tree: levels word position, base, left, right (a node: its context, how many children,
  // the first child); a leaf holds the phone id.
  const triphones = new TriphoneTable(nCi);
  const ctx = [0, 0, 0];
  const walk = (first: number, count: number, level: number) => {
    for (let i = first; i < first + count; i++) {
      const o = treeStart + i * 8;
      const c = v.getInt16(o, true);
      const nDown = v.getInt16(o + 2, true);
      const down = v.getInt32(o + 4, true);
      if (level === 3) {
        if (down < nCi || down >= nPhone || !triphones.add(ctx[0]!, ctx[1]!, ctx[2]!, c, down))
          throw bad(path, 'a triphone of the context tree is out of range');
      } else if (nDown > 0) {
        ctx[level] = c;
        walk(down, nDown, level + 1);
      }
    }
  };
  if (nCdTree > 0) walk(0, Math.min(4, nCdTree), 0);
  return finish({
    ciPhones,
    filler,
    sil,
    nEmitState: nEmit,
    nCiSenones: nCiSen,
    nSenones: nSen,
    nTmat,
    phoneSseq,
    phoneTmat,
    phoneBase,
    sseq,
    triphones,
  });
}

function readTextMdef(bytes: Uint8Array, path: string): ModelDefinition {
  const lines = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (lines[0] !== '0.3') throw bad(path, `unknown version "${lines[0] ?? ''}"`);
  const count = (name: string) => {
    const line = lines.find((l) => l.endsWith(` ${name}`));
    if (!line) throw bad(path, `no ${name}`);
    return Number(line.split(/\s+/)[0]);
  };
  const nBase = count('n_base');
  // (as in the binary form: a model has a few dozen phones, and the triphone table is sized by their square)
  if (!(nBase > 0 && nBase <= 255)) throw bad(path, 'implausible counts');
  const nTri = count('n_tri');
  const nSen = count('n_tied_state');
  const nCiSen = count('n_tied_ci_state');
  const nTmat = count('n_tied_tmat');
  const rows = lines.filter((l) => !/^\d+ n_/.test(l) && l !== '0.3').map((l) => l.split(/\s+/));
  if (rows.length !== nBase + nTri)
    throw bad(path, `${rows.length} phones where ${nBase + nTri} are announced`);
  const ciPhones = rows.slice(0, nBase).map((r) => r[0]!);
  const ciIndex = new Map(ciPhones.map((p, i) => [p, i]));
  const nEmit = rows[0]!.length - 7;
  const nPhone = rows.length;
  const phoneSseq = new Int32Array(nPhone);
  const phoneTmat = new Int32Array(nPhone);
  const phoneBase = new Int32Array(nPhone);
  const seqs: number[] = [];
  const seqIds = new Map<string, number>();
  const triphones = new TriphoneTable(nBase);
  const filler: boolean[] = [];
  rows.forEach((r, i) => {
    const [base, lc, rc, pos, attrib, tmat, ...rest] = r as [string, string, string, string, string, string];
    const states = rest.slice(0, nEmit).map(Number);
    if (states.length !== nEmit || rest[nEmit] !== 'N') throw bad(path, `bad row "${r.join(' ')}"`);
    const ci = ciIndex.get(base);
    if (ci === undefined) throw bad(path, `unknown base phone ${base}`);
    const key = states.join(',');
    let s = seqIds.get(key);
    if (s === undefined) {
      s = seqIds.size;
      seqIds.set(key, s);
      seqs.push(...states);
    }
    phoneSseq[i] = s;
    phoneTmat[i] = Number(tmat);
    phoneBase[i] = ci;
    if (i < nBase) filler.push(attrib === 'filler');
    else {
      const w = WPOS_CODES.indexOf(pos);
      const l = ciIndex.get(lc);
      const rr = ciIndex.get(rc);
      if (w < 0 || l === undefined || rr === undefined) throw bad(path, `bad triphone "${r.join(' ')}"`);
      triphones.add(w, ci, l, rr, i);
    }
  });
  return finish({
    ciPhones,
    filler,
    sil: ciIndex.get('SIL') ?? -1,
    nEmitState: nEmit,
    nCiSenones: nCiSen,
    nSenones: nSen,
    nTmat,
    phoneSseq,
    phoneTmat,
    phoneBase,
    sseq: Int32Array.from(seqs),
    triphones,
  });
}

function finish(m: Omit<ModelDefinition, 'ciIndex' | 'senoneCi'>): ModelDefinition {
  const senoneCi = new Int32Array(m.nSenones).fill(-1);
  for (let p = 0; p < m.phoneSseq.length; p++) {
    const s = m.phoneSseq[p]!;
    for (let j = 0; j < m.nEmitState; j++) {
      const sen = m.sseq[s * m.nEmitState + j]!;
      if (senoneCi[sen] === -1) senoneCi[sen] = m.phoneBase[p]!;
    }
  }
  return { ...m, ciIndex: new Map(m.ciPhones.map((p, i) => [p, i])), senoneCi };
}

/** The phone id of a triphone, or -1. Filler contexts count as silence (as in the Sphinx decoders). */
export function phoneId(m: ModelDefinition, ci: number, lc: number, rc: number, wpos: number): number {
  const l = m.sil >= 0 && m.filler[lc] ? m.sil : lc;
  const r = m.sil >= 0 && m.filler[rc] ? m.sil : rc;
  return m.triphones.lookup(wpos, ci, l, r);
}

/**
 * The closest phone the model has for a base phone in context: the triphone at its word position, else
 * at another position, else with silence for a filler context (or for the context outside a word's
 * edge), else the context-independent phone. The back-off order the Sphinx decoders use, so that
 * contexts the training data never saw are scored the same way.
 */
export function nearestPhone(m: ModelDefinition, ci: number, lc: number, rc: number, wpos: number): number {
  if (lc < 0 || rc < 0 || m.triphones.size === 0) return ci;
  if (m.contextOf) {
    lc = m.contextOf[lc] ?? lc;
    rc = m.contextOf[rc] ?? rc;
  }
  let p = anyPosition(m, ci, lc, rc, wpos);
  if (p >= 0) return p;
  if (m.sil >= 0) {
    const l = m.filler[lc] || wpos === WPOS.begin || wpos === WPOS.single ? m.sil : lc;
    const r = m.filler[rc] || wpos === WPOS.end || wpos === WPOS.single ? m.sil : rc;
    if (l !== lc || r !== rc) {
      p = anyPosition(m, ci, l, r, wpos);
      if (p >= 0) return p;
    }
  }
  return ci;
}

/** The triphone in these contexts at the word position asked for, else at any other position; -1: none. */
function anyPosition(m: ModelDefinition, ci: number, lc: number, rc: number, wpos: number): number {
  let p = phoneId(m, ci, lc, rc, wpos);
  if (p >= 0) return p;
  for (let w = 0; w < 4; w++) {
    if (w === wpos) continue;
    p = phoneId(m, ci, lc, rc, w);
    if (p >= 0) return p;
  }
  return -1;
}

/** The senones of a phone, in state order. */
export function phoneSenones(m: ModelDefinition, pid: number): Int32Array {
  const s = m.phoneSseq[pid]!;
  return m.sseq.subarray(s * m.nEmitState, (s + 1) * m.nEmitState);
}

/** The text form of a model definition (what `tazamun adapt` writes when it adds phones). */
export function writeTextMdef(m: ModelDefinition): string {
  const n = m.ciPhones.length;
  const rows: string[] = [];
  const byPhone = [...m.triphones.contexts()];
  byPhone.sort((a, b) => a.pid - b.pid);
  const states = (pid: number) => Array.from(phoneSenones(m, pid)).join(' ');
  for (let ci = 0; ci < n; ci++)
    rows.push(
      `${m.ciPhones[ci]} - - - ${m.filler[ci] ? 'filler' : 'n/a'} ${m.phoneTmat[ci]} ${states(ci)} N`,
    );
  for (const t of byPhone)
    rows.push(
      `${m.ciPhones[t.ci]} ${m.ciPhones[t.lc]} ${m.ciPhones[t.rc]} ${WPOS_CODES[t.wpos]} n/a ${m.phoneTmat[t.pid]} ${states(t.pid)} N`,
    );
  const nStateMap = (n + byPhone.length) * (m.nEmitState + 1);
  return [
    '0.3',
    `${n} n_base`,
    `${byPhone.length} n_tri`,
    `${nStateMap} n_state_map`,
    `${m.nSenones} n_tied_state`,
    `${m.nCiSenones} n_tied_ci_state`,
    `${m.nTmat} n_tied_tmat`,
    '#',
    '# Columns definitions',
    `#base lft  rt p attrib tmat      ... state id's ...`,
    ...rows,
    '',
  ].join('\n');
}
