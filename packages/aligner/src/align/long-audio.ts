// Long recordings are aligned in two passes so memory stays bounded and time grows linearly with the audio.
//
// 1. Segmentation: windows of about 45 s, each searched with an open end (the transcript may stop anywhere
//    inside the window) and read at word level only. Words that end well before the window's end are kept
//    (its last seconds may cut a word); the next window starts in the pause after them. Every window is
//    re-anchored on the audio, so there is no accumulated drift.
// 2. Alignment: the file is cut in pauses between the words found into pieces of 15-40 s, and each piece
//    gets the full closed search (all its words must be placed or skipped, phones included). A piece whose
//    closed search fails keeps its first-pass word times. Its speaker adaptation is fitted to the first
//    pass's path over its stretch (a back-end's SpeakerTrack), so it is searched once, not twice.
// A back-end whose search is itself linear in the audio and bounded in memory (traits.wholeFile: MMS's
// banded, checkpointed CTC Viterbi) gets the whole file as one window instead.
import {
  DERAILED_RUN,
  LEADING_SKIPPED_MAX,
  SKIPPED_WORD_SECONDS,
  leadingUnplaced,
  skippedRuns,
  placeable,
} from '../acoustic/backend.ts';
import type {
  AcousticBackend,
  Precision,
  Recognition,
  SpeakerAdaptation,
  SpeakerTrack,
  Unit,
  UnitSpan,
  WindowRequest,
} from '../acoustic/backend.ts';
import { SAMPLE_RATE } from '../audio/decode.ts';
import { OPEN_HEAD_SKIP_MAX } from './grammar.ts';
import type { Samples } from '../audio/pcm.ts';
import { frameMeasures } from '../audio/measure.ts';
import { analyseSpeech } from '../metrics/speech.ts';

export interface LongAudioOptions {
  precision: Precision;
  garbage: boolean;
  /** files up to this many seconds are aligned in one search */
  singleMax?: number;
  /** first-pass window length in seconds */
  window?: number;
  /** seconds at the window end whose words are not committed */
  guard?: number;
  /** called with the share of the audio done, in [0, 1] */
  onProgress?: (done: number) => void;
  /** passed to the back-end for notes on the result's warnings */
  warn?: (message: string) => void;
  /** the final searches' recognitions (whole file or pieces), from a back-end that makes them */
  onRecognition?: (r: Recognition) => void;
  /**
   * Other threads for the second pass: a piece is handed to one as soon as the first pass has fixed it,
   * while the first pass goes on here (absent: every piece on this thread, after the first pass).
   */
  pieces?: PieceRunner;
}

/** A piece of the second pass (or a stretch's search), as another thread gets it. */
export interface PieceWork extends SearchShape {
  samples: Samples;
  offset: number;
  units: Unit[];
  coarse: UnitSpan[];
  /** the speaker adaptation the first pass's path gave the piece (absent: the piece adapts on its own) */
  adaptation?: SpeakerAdaptation;
  /** false: no recognition of the piece's window (a repair's search: its recognition is not kept) */
  recognise?: false;
}

/**
 * How a stretch's search differs from a piece's closed search: a loop before its first word
 * (WindowRequest.leadingLoop: align/reseat.ts), or every word forced in without the garbage path
 * (WindowRequest.forced: align/squeezed.ts).
 */
export interface SearchShape {
  leadingLoop?: true;
  forced?: true;
}

export interface PieceOutcome {
  spans: UnitSpan[];
  recognitions: Recognition[];
  warnings: string[];
}

/** Runs pieces on other threads. */
export interface PieceRunner {
  /** threads free now (run() is called only while one is) */
  readonly free: number;
  run(piece: PieceWork): Promise<PieceOutcome>;
  /**
   * A piece given to a thread that has not started it (it waits behind the one the thread is in), taken
   * back for this thread to run; null when there is none. The promise run() gave settles with what this
   * thread reports.
   */
  takeBack?(): PieceTakenBack | null;
}

/**
 * A piece taken back from another thread: this thread runs it, with the settings it was given to the
 * thread with (whichever caller takes it back: the stretch searches of one step may take back another's),
 * and says how it went.
 */
export interface PieceTakenBack {
  work: PieceWork;
  settings: PieceSettings;
  done(outcome: PieceOutcome): void;
  failed(cause: unknown): void;
}

/**
 * What a piece's search is run with, on whatever thread runs it: the settings of the runner it was given
 * to (engine.ts, `piecePool(...).runner(precision, garbage, recognise)`).
 */
export type PieceSettings = Pick<LongAudioOptions, 'precision' | 'garbage'> & { recognise: boolean };

/** Files up to this many seconds are aligned in one search (LongAudioOptions.singleMax's default). */
export const SINGLE_MAX = 75;

/** Second-pass pieces: cut in the widest pause once a piece is this long ... */
const PIECE_MIN = 15;
/** ... and at the latest at this length. */
const PIECE_MAX = 40;
/** A piece longer than this has no first-pass words to cut at: it is read with open windows again. */
const PIECE_LIMIT = 90;

export async function alignLong(
  backend: AcousticBackend,
  samples: Samples,
  units: Unit[],
  opts: LongAudioOptions,
): Promise<UnitSpan[]> {
  const singleMax = opts.singleMax ?? SINGLE_MAX;
  const total = samples.length / SAMPLE_RATE;
  const base = { precision: opts.precision, garbage: opts.garbage, warn: opts.warn };
  // one closed search over the whole recording
  const firstTry: Recognition[] = [];
  const whole = (onProgress?: (done: number) => void): Promise<UnitSpan[]> =>
    backend.alignWindow({
      ...base,
      samples: samples.all(),
      offset: 0,
      units,
      openEnd: false,
      wholeRecording: true,
      onProgress,
      onRecognition: opts.onRecognition ? (r) => firstTry.push(r) : undefined,
    });
  const keep = (spans: UnitSpan[]) => {
    for (const r of firstTry) opts.onRecognition?.(r);
    return spans;
  };
  if (backend.traits.wholeFile) {
    const spans = await whole(opts.onProgress);
    opts.onProgress?.(1);
    return keep(spans);
  }
  if (total <= singleMax) {
    const spans = await whole();
    opts.onProgress?.(1);
    // When the one search finds no complete path (beams, an odd stretch of audio), the two-pass path
    // with short windows usually gets through.
    if (spans.length >= units.length * 0.5 || total < 8) return keep(spans);
    const retry: Recognition[] = [];
    const again = await twoPass(backend, samples, units, {
      ...opts,
      window: 12,
      guard: 3,
      onRecognition: opts.onRecognition ? (r) => retry.push(r) : undefined,
    });
    if (again.length <= spans.length) return keep(spans);
    for (const r of retry) opts.onRecognition?.(r);
    return again;
  }
  return twoPass(backend, samples, units, opts);
}

async function twoPass(
  backend: AcousticBackend,
  samples: Samples,
  units: Unit[],
  opts: LongAudioOptions,
): Promise<UnitSpan[]> {
  const searches = new StretchSearches(backend, samples, units, opts);
  const adaptations = new PieceAdaptations(backend.speakerTrack?.() ?? null);
  try {
    let second: { spans: UnitSpan[]; plan: Piece[] };
    if (opts.pieces)
      second = await twoPassParallel(backend, samples, units, opts, opts.pieces, searches, adaptations);
    else {
      const first = await firstPass(backend, samples, units, opts, adaptations);
      second = await piecePass(
        backend,
        samples,
        units,
        first,
        opts,
        (d) => opts.onProgress?.(0.3 + d * 0.7),
        adaptations,
      );
    }
    const merged = await mergeFailedEdges(searches, units, second.spans, second.plan);
    return await repairRuns(searches, samples, units, merged);
  } finally {
    // this thread takes no more of the threads' work for these searches: the engine's next steps have
    // their own (a search asked ahead and not needed is dropped)
    searches.close();
  }
}

/**
 * The first pass over the whole file, hearing its speaker for the pieces: after each window, the pieces it
 * fixed take their adaptations, then `fixed` is told of them.
 */
function firstPass(
  backend: AcousticBackend,
  samples: Samples,
  units: Unit[],
  opts: LongAudioOptions,
  adaptations: PieceAdaptations,
  fixed?: (pieces: Piece[], partial: readonly UnitSpan[]) => void,
): Promise<UnitSpan[]> {
  const total = samples.length / SAMPLE_RATE;
  // the first commit places the text's first word, and with it where the first piece starts
  let start: number | undefined;
  const onCommit = (partial: readonly UnitSpan[]) => {
    start ??= textStart(samples, units, partial);
    const pieces = fixedPieces(partial, units.length, total, start);
    adaptations.fix(pieces, partial);
    fixed?.(pieces, partial);
  };
  const progress = (d: number) => opts.onProgress?.(d * 0.3);
  return segmentPass(backend, samples, units, opts, progress, undefined, onCommit, adaptations.track);
}

/** A piece's search that leaves at least this many words unplaced at an edge it shares with a neighbour ... */
const EDGE_RUN = 2;

/**
 * A turn of this thread's event loop, between two searches of its own: the piece threads' replies are
 * read only then, and a thread whose replies are unread looks busy and is given nothing. The searches
 * themselves never yield (the native kernel is a synchronous call), so without these turns the second
 * thread aligned 2 of a 0.27 h file's 34 pieces and waited 41 s (2026-12-05).
 */
const eventLoopTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * A repair's (or a reseat's) search: the closed search of units [u0, u1) over the file's stretch from..to
 * (seconds).
 */
export interface Stretch extends SearchShape {
  u0: number;
  u1: number;
  from: number;
  to: number;
}

/** A stretch searched on another thread is at most this long (alignPiece reads a longer one in windows). */
const THREAD_STRETCH_MAX = PIECE_LIMIT - 1;

/**
 * The repairs' stretch searches (mergeFailedEdges, repairRuns; align/squeezed.ts and align/reseat.ts have
 * their own, over the same threads). A search's outcome depends only on its stretch, so the searches asked
 * for are run wherever there is room: on a piece thread that is free, else on this thread, one at a time,
 * in the order asked. A repair that can go on only with a search's outcome waits for it while the others
 * go on; the result is the one a single thread gives whichever thread searched what.
 */
export class StretchSearches {
  private readonly done = new Map<string, Promise<UnitSpan[]>>();
  /** searches asked for and not started yet, in the order asked */
  private readonly asked: {
    s: Stretch;
    resolve: (spans: UnitSpan[]) => void;
    reject: (err: unknown) => void;
  }[] = [];
  /** this thread is inside a search of the queue */
  private searching = false;
  /** close(): nothing more is run here or handed out */
  private closed = false;
  /** called when a search on a piece thread ends (its thread is free for other work) */
  threadFreed?: () => void;

  constructor(
    private readonly backend: AcousticBackend,
    private readonly samples: Samples,
    private readonly units: Unit[],
    private readonly opts: LongAudioOptions,
  ) {}

  /** The spans of the stretch's search, their units counted from u0 (searched once, wherever there is room). */
  get(s: Stretch): Promise<UnitSpan[]> {
    const found = this.offer(s);
    // this thread takes what the threads have no room for
    void this.onThisThread();
    return found;
  }

  /**
   * Queues the stretch's search for a piece thread with room (a long one is this thread's), and nothing
   * more: this thread runs it only when get() or runOne() asks, so it can go on with other work.
   */
  offer(s: Stretch): Promise<UnitSpan[]> {
    const k = stretchKey(s);
    let found = this.done.get(k);
    if (!found) {
      found = new Promise<UnitSpan[]>((resolve, reject) => this.asked.push({ s, resolve, reject }));
      this.done.set(k, found);
      this.toThreads();
    }
    return found;
  }

  /**
   * Runs the searches on the piece threads and this one until all are done; nothing without threads (a
   * search run ahead that the repair then does not ask for is work for nothing on a single thread).
   */
  async ahead(list: Stretch[]): Promise<void> {
    if (!this.opts.pieces) return;
    await Promise.allSettled(list.map((s) => this.get(s)));
  }

  /**
   * Queues searches that will probably be asked for, in the order they will be, where there are piece
   * threads to share them (on a single thread a search asked for ahead may be work for nothing): the
   * threads take them as they come free, and this thread runs the rest in turn once get() is called.
   */
  prefetch(list: Stretch[]): void {
    if (!this.opts.pieces) return;
    for (const s of list) this.offer(s).catch(() => {});
  }

  /**
   * The searches asked for and not started are dropped (their promises reject) and this thread takes no
   * more: each step that asks for searches (the repairs, align/squeezed.ts, align/reseat.ts) calls it when
   * it is done, so that none it asked ahead runs on beside the engine's later steps, and its loop here
   * takes back no later step's searches. A search running on a piece thread ends there unread.
   */
  close(): void {
    this.closed = true;
    for (const a of this.asked.splice(0)) a.reject(new Error('a stretch search no longer needed'));
  }

  /** Hands searches asked for to the piece threads while they have room (a long one is this thread's). */
  toThreads(): void {
    const runner = this.opts.pieces;
    if (!runner || this.closed) return;
    for (let i = 0; runner.free > 0 && i < this.asked.length;) {
      const { s, resolve, reject } = this.asked[i]!;
      if (s.to - s.from > THREAD_STRETCH_MAX) {
        i++;
        continue;
      }
      this.asked.splice(i, 1);
      const run = this.onThread(runner, s);
      run.then(resolve, reject);
      run
        .finally(() => {
          this.toThreads();
          this.threadFreed?.();
        })
        .catch(() => {});
    }
  }

  /** This thread runs the next search queued, if there is one and it is not inside one already. */
  async runOne(): Promise<boolean> {
    if (this.searching || !this.asked.length) return false;
    this.searching = true;
    try {
      await this.runNext();
    } finally {
      this.searching = false;
    }
    return true;
  }

  /**
   * This thread takes the searches left, one at a time, handing the threads more after each; when none is
   * left for it, it takes back what a thread holds and has not started (the repairs wait for it), until
   * there is nothing to take.
   */
  private async onThisThread(): Promise<void> {
    if (this.searching) return;
    this.searching = true;
    try {
      for (;;) {
        if (this.closed) break;
        if (this.asked.length) await this.runNext();
        else if (!(await this.takeBack())) break;
        // the repairs waiting for what was just searched go on (and may ask for more) before the next
        await eventLoopTurn();
        this.toThreads();
      }
    } finally {
      this.searching = false;
    }
  }

  /**
   * Runs here a piece or search that a thread holds and has not started, if there is one: rather than
   * wait while the thread ends the one it is in first.
   */
  async takeBack(): Promise<boolean> {
    const taken = this.opts.pieces?.takeBack?.();
    if (!taken) return false;
    try {
      // as the thread would have run it (not with this caller's settings: a search without the garbage
      // path taken back by the repairs' searches was run with it, 2026-12-07)
      taken.done(await pieceOutcome(this.backend, taken.work, taken.settings));
    } catch (err) {
      taken.failed(err);
    }
    return true;
  }

  private async runNext(): Promise<void> {
    const next = this.asked.shift();
    if (!next) return;
    try {
      next.resolve(await this.here(next.s));
    } catch (err) {
      next.reject(err);
    }
  }

  private async here(s: Stretch): Promise<UnitSpan[]> {
    const [f, t] = sampleBounds(s);
    const spans = await this.backend.alignWindow({
      precision: this.opts.precision,
      garbage: this.opts.garbage,
      warn: this.opts.warn,
      samples: this.samples.window(f, t),
      offset: f / SAMPLE_RATE,
      units: this.units.slice(s.u0, s.u1),
      openEnd: false,
      leadingLoop: s.leadingLoop,
      forced: s.forced,
    });
    // the window's scores are let go at once
    this.backend.release?.();
    return spans;
  }

  private async onThread(runner: PieceRunner, s: Stretch): Promise<UnitSpan[]> {
    const [f, t] = sampleBounds(s);
    const out = await runner.run({
      samples: this.samples.piece(f, t),
      offset: f / SAMPLE_RATE,
      units: this.units.slice(s.u0, s.u1),
      coarse: [],
      recognise: false,
      leadingLoop: s.leadingLoop,
      forced: s.forced,
    });
    for (const w of out.warnings) this.opts.warn?.(w);
    return out.spans;
  }
}

const stretchKey = (s: Stretch) =>
  `${s.u0}:${s.u1}:${s.from}:${s.to}:${s.leadingLoop ? 'loop' : ''}:${s.forced ? 'forced' : ''}`;

/** A stretch's (or a piece's) first sample and the sample after its last, from its times in seconds. */
const sampleBounds = (s: { from: number; to: number }): [number, number] => [
  Math.round(s.from * SAMPLE_RATE),
  Math.round(s.to * SAMPLE_RATE),
];

/**
 * The index of the first span of `spans` (in unit order) whose unit is `u` or later, by bisection (a file
 * has hundreds of piece edges and tens of thousands of spans).
 */
function firstSpanOf(spans: readonly UnitSpan[], u: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.unit < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A piece's search that left words unplaced at its edge with the next: the second pass's spans in
 * either piece, and whether at least EDGE_RUN placeable words are left after a's last placed word or
 * before b's first.
 */
function failedEdge(result: UnitSpan[], units: Unit[], a: Piece, b: Piece) {
  const from = (u: number) => firstSpanOf(result, u);
  const placedIn = (u0: number, u1: number) => result.slice(from(u0), from(u1));
  /** placeable units not placed in [u0, u1) */
  const unplaced = (u0: number, u1: number) => {
    const placed = new Set(placedIn(u0, u1).map((s) => s.unit));
    let n = 0;
    for (let u = u0; u < u1; u++) if (placeable(units[u]!) && !placed.has(u)) n++;
    return n;
  };
  const inA = placedIn(a.u0, a.u1);
  const inB = placedIn(b.u0, b.u1);
  // a's words after its last placed one, b's before its first placed one
  const trailing = unplaced(inA.length ? inA[inA.length - 1]!.unit + 1 : a.u0, a.u1);
  const leading = unplaced(b.u0, inB.length ? inB[0]!.unit : b.u1);
  return { fails: trailing >= EDGE_RUN || leading >= EDGE_RUN, placed: inA.length + inB.length };
}

/**
 * ... had words of the neighbour's audio, or the neighbour had words of its own: the first pass lost its
 * way around their cut (hoarse speech, a phrase the transcript repeats a little later), so the cut put
 * words on the wrong side. The two pieces are searched again as one (closed, the audio of both and the
 * words of both), and that search replaces theirs when it places more words. In the order of the file,
 * so a merged pair's edge with the next piece is judged on the merged result.
 */
async function mergeFailedEdges(
  searches: StretchSearches,
  units: Unit[],
  spans: UnitSpan[],
  plan: Piece[],
): Promise<UnitSpan[]> {
  const pairs = plan
    .slice(1)
    .map((b, i) => [plan[i]!, b] as const)
    .filter(([a, b]) => mergeable(a, b));
  // the edges that fail in the second pass's result (one a merge before them mends is searched for nothing)
  await searches.ahead(
    pairs.filter(([a, b]) => failedEdge(spans, units, a, b).fails).map(([a, b]) => mergeStretch(a, b)),
  );
  let result = spans;
  for (const [a, b] of pairs) {
    const edge = failedEdge(result, units, a, b);
    if (!edge.fails) continue;
    // A merge before this one may have placed a's predecessors past a's start (its search was over both
    // of its pieces): this stretch starts after them, or its words would overlap theirs.
    const ia = firstSpanOf(result, a.u0);
    const before = ia > 0 ? result[ia - 1] : undefined;
    const stretch = mergeStretch(a, b);
    if (before && before.end > stretch.from) stretch.from = before.end;
    if (stretch.to - stretch.from < MERGE_MIN_SECONDS) continue;
    const again = await searches.get(stretch);
    if (again.length <= edge.placed) continue;
    result = [
      ...result.slice(0, ia),
      ...again.map((s) => ({ ...s, unit: s.unit + a.u0 })),
      ...result.slice(firstSpanOf(result, b.u1)),
    ];
  }
  return result;
}
/** A merged stretch whose start an earlier merge pushed this close to its end is not searched. */
const MERGE_MIN_SECONDS = 1;
/** Two neighbouring pieces short enough to be searched again as one. */
const mergeable = (a: Piece, b: Piece): boolean => b.t1 - a.t0 <= PIECE_LIMIT;
/** The stretch of two neighbouring pieces searched as one. */
const mergeStretch = (a: Piece, b: Piece): Stretch => ({ u0: a.u0, u1: b.u1, from: a.t0, to: b.t1 });

/** Placed words on either side of a run of unplaced ones that its repair search places again, in turn. */
const REPAIR_CONTEXTS = [2, 8, 20];
/** A repair searches at most this many seconds. */
const REPAIR_MAX = 60;
/** Runs of at least this many unplaced words (with a pronunciation) are searched again. */
const REPAIR_MIN = 2;

/**
 * Runs of words the second pass left unplaced, searched again between the placed words around them. A
 * piece cut where the first pass had lost its way holds words whose audio lies in the next piece (or
 * the other way round), and its closed search leaves them unplaced; between its neighbours, the run
 * and its audio are together again. The closed search over the stretch (the run and REPAIR_CONTEXT
 * placed words on each side, the audio between the placed words beyond them) replaces what was there
 * when it places more words.
 *
 * A run's repair reads the placed words around it (REPAIR_CONTEXTS' widest on each side, and the word
 * beyond them, which it never replaces). Runs whose reaches meet are one group, repaired in turn (the
 * later run first, so the earlier one is judged on its outcome, as one pass over the file from its end
 * would). The groups split the file's placed words between them, halfway between their reaches, and
 * share nothing, so they are repaired at once, their searches on every thread there is. A repair is
 * confined to its group's share: it differs from the single pass only where a run's neighbours, replaced
 * by a later run's repair, would have it read past halfway to the next group.
 */
async function repairRuns(
  searches: StretchSearches,
  samples: Samples,
  units: Unit[],
  spans: UnitSpan[],
): Promise<UnitSpan[]> {
  const total = samples.length / SAMPLE_RATE;
  const placedAt = new Map<number, number>();
  spans.forEach((s, i) => placedAt.set(s.unit, i));
  // runs of unplaced placeable units, in order
  const runs: [number, number][] = [];
  let start = -1;
  let count = 0;
  for (let u = 0; u <= units.length; u++) {
    const placed = u < units.length && placedAt.has(u);
    if (u === units.length || placed) {
      if (start >= 0 && count >= REPAIR_MIN) runs.push([start, u]);
      start = -1;
      count = 0;
      continue;
    }
    if (!placeable(units[u]!)) continue;
    if (start < 0) start = u;
    count++;
  }
  const groups = repairGroups(spans, runs, total);
  const repaired = await Promise.all(groups.map((g) => repairGroup(searches, g)));
  const result: UnitSpan[] = [];
  let at = 0;
  groups.forEach((g, i) => {
    result.push(...spans.slice(at, g.lo), ...repaired[i]!);
    at = g.hi;
  });
  result.push(...spans.slice(at));
  return result;
}

/**
 * A group of runs repaired together: they may replace spans [lo, hi) of the second pass's result, over the
 * audio from..to (between the spans around them, or the file's ends).
 */
interface RepairGroup {
  runs: [number, number][];
  spans: UnitSpan[];
  lo: number;
  hi: number;
  from: number;
  to: number;
}

/** The runs' groups, in order: runs whose widest repairs would reach each other's spans are one group. */
function repairGroups(spans: UnitSpan[], runs: [number, number][], total: number): RepairGroup[] {
  const widest = Math.max(...REPAIR_CONTEXTS);
  // each group's runs and the spans [lo, hi) its widest repairs reach
  const reach: { runs: [number, number][]; lo: number; hi: number }[] = [];
  let next = 0;
  for (const run of runs) {
    // the placed span before the run, and the widest context's spans around it
    while (next < spans.length && spans[next]!.unit < run[0]) next++;
    const lo = Math.max(0, next - widest);
    const hi = Math.min(spans.length, next + widest);
    const last = reach[reach.length - 1];
    // one group when either would replace the span the other reads beyond its own
    if (last && lo <= last.hi) {
      last.runs.push(run);
      last.hi = Math.max(last.hi, hi);
    } else reach.push({ runs: [run], lo, hi });
  }
  // Each group's share of the file reaches halfway to the next group's widest reach, so that a repair
  // whose placed words around it change (a later run of its group replaced some) still reads what a
  // single pass over the whole file would read, unless it goes past halfway.
  return reach.map((r, i) => {
    const before = reach[i - 1];
    const after = reach[i + 1];
    const lo = before ? Math.floor((before.hi + r.lo) / 2) : 0;
    const hi = after ? Math.floor((r.hi + after.lo) / 2) : spans.length;
    return {
      runs: r.runs,
      spans: spans.slice(lo, hi),
      lo,
      hi,
      from: lo > 0 ? spans[lo - 1]!.end : 0,
      to: hi < spans.length ? spans[hi]!.start : total,
    };
  });
}

/** A group's runs repaired in turn, the later first; the spans that replace the group's. */
async function repairGroup(searches: StretchSearches, g: RepairGroup): Promise<UnitSpan[]> {
  let result = g.spans;
  for (const run of [...g.runs].reverse()) {
    for (const context of REPAIR_CONTEXTS) {
      const at = repairStretch(result, run, context, g);
      if (!at) break;
      const again = await searches.get(at.stretch);
      if (again.length <= at.hi - at.lo) continue;
      result = [
        ...result.slice(0, at.lo),
        ...again.map((s) => ({ ...s, unit: s.unit + at.stretch.u0 })),
        ...result.slice(at.hi),
      ];
      break;
    }
  }
  return result;
}

/**
 * The run [a, b) with `context` placed spans on each side (searched again with it) over the audio between
 * the fixed spans beyond them (spans [lo, hi) of `result` are replaced; `bounds`: the audio around
 * `result`'s first and last spans); the context widens when the placed words around the run were placed
 * wrongly themselves (stretched over the run's audio). Null when the stretch is longer than REPAIR_MAX
 * or shorter than half a second: the run is left as it is.
 */
function repairStretch(
  result: UnitSpan[],
  [a, b]: [number, number],
  context: number,
  bounds: { from: number; to: number },
): { stretch: Stretch; lo: number; hi: number } | null {
  let left = result.findIndex((s) => s.unit >= a) - 1;
  if (left === -2) left = result.length - 1;
  const lo = Math.max(0, left - context + 1);
  const right = left + 1;
  const hi = Math.min(result.length, right + context);
  const u0 = lo <= left ? result[lo]!.unit : a;
  const u1 = hi > right ? result[hi - 1]!.unit + 1 : b;
  const from = lo > 0 ? result[lo - 1]!.end : bounds.from;
  const to = hi < result.length ? result[hi]!.start : bounds.to;
  if (to - from > REPAIR_MAX || to - from < 0.5) return null;
  return { stretch: { u0, u1, from, to }, lo, hi };
}

/**
 * Both passes at once. A piece is queued as soon as the first pass has committed words past the farthest
 * point its cut depends on (PIECE_MAX after its start), which makes it the piece the whole first pass
 * would give; a free thread takes the next queued piece at once, while the first pass goes on here. After
 * the first pass this thread takes queued pieces too, one at a time, as the other threads do, until none
 * is left. Then, while the last pieces are out on other threads, the merges of failed edges
 * (mergeFailedEdges) whose two pieces are both done are searched ahead, on this thread and on any thread
 * that comes free, rather than once every piece is done. The stitched result is the sequential one
 * whichever thread aligned which piece or searched which merge.
 */
async function twoPassParallel(
  backend: AcousticBackend,
  samples: Samples,
  units: Unit[],
  opts: LongAudioOptions,
  runner: PieceRunner,
  searches: StretchSearches,
  adaptations: PieceAdaptations,
): Promise<{ spans: UnitSpan[]; plan: Piece[] }> {
  const total = samples.length / SAMPLE_RATE;
  const key = pieceKey;
  /** outcomes of the pieces started, by key */
  const started = new Map<string, Promise<PieceOutcome>>();
  /** pieces fixed and not started yet, in the order of the file (with the first-pass spans they take) */
  let queue: { piece: Piece; first: readonly UnitSpan[] }[] = [];
  const queued = new Set<string>();
  const work = (p: Piece, first: readonly UnitSpan[]): PieceWork => ({
    samples: pieceSamples(samples, p),
    offset: p.t0,
    units: units.slice(p.u0, p.u1),
    coarse: first.filter((s) => s.unit >= p.u0 && s.unit < p.u1).map((s) => ({ ...s, unit: s.unit - p.u0 })),
    adaptation: adaptations.of(p, first),
  });
  let piecesDone = 0;
  let pieceCount = 0;
  const progress = () => {
    if (pieceCount) opts.onProgress?.(0.3 + (0.7 * piecesDone) / pieceCount);
  };
  /** the whole plan (known once the first pass is done), each piece's place in it, the pieces done */
  let plan: Piece[] = [];
  const planIndex = new Map<string, number>();
  const finished = new Map<string, PieceOutcome>();
  /** the pairs judged (a merge of a failed edge is offered to the searches as soon as it is found) */
  const judged = new Set<number>();
  // the edge between plan pieces i and i + 1, judged as mergeFailedEdges judges it on the second pass's
  // result (only the two pieces' spans count) once both are done
  const judge = (i: number): void => {
    const a = plan[i];
    const b = plan[i + 1];
    if (!a || !b || judged.has(i) || !mergeable(a, b)) return;
    const oa = finished.get(key(a));
    const ob = finished.get(key(b));
    if (!oa || !ob) return;
    judged.add(i);
    const spans = [a, b].flatMap((p, j) =>
      (j === 0 ? oa : ob).spans.map((s) => ({ ...s, unit: s.unit + p.u0 })),
    );
    if (failedEdge(spans, units, a, b).fails) void searches.offer(mergeStretch(a, b)).catch(() => {});
  };
  const finish = (p: Piece, o: PieceOutcome): void => {
    finished.set(key(p), o);
    const i = planIndex.get(key(p));
    if (i === undefined) return;
    judge(i - 1);
    judge(i);
  };
  // hands the merges found, then queued pieces, to free threads; called whenever a piece is queued or a
  // thread comes free
  const pump = (): void => {
    searches.toThreads();
    while (runner.free > 0 && queue.length) {
      const { piece, first } = queue.shift()!;
      const run = runner.run(work(piece, first));
      started.set(key(piece), run);
      run.then(
        (o) => {
          finish(piece, o);
          piecesDone++;
          progress();
          pump();
        },
        () => {}, // the caller sees the failure through `started`
      );
    }
  };
  searches.threadFreed = pump;
  const dispatch = (fixed: Piece[], partial: readonly UnitSpan[]) => {
    for (const p of fixed) {
      const k = key(p);
      if (started.has(k) || queued.has(k)) continue;
      queued.add(k);
      queue.push({ piece: p, first: partial });
    }
    pump();
  };
  const first = await firstPass(backend, samples, units, opts, adaptations, dispatch);
  if (first.length === 0) {
    await Promise.allSettled(started.values());
    return { spans: [], plan: [] };
  }
  // the whole plan: pieces not started yet are queued again from it (the same pieces, and any the
  // partial plans could not fix: the last ones)
  plan = planPieces(first, units.length, total, textStart(samples, units, first));
  plan.forEach((p, i) => planIndex.set(key(p), i));
  plan.forEach((_, i) => judge(i));
  pieceCount = plan.length;
  queue = plan.filter((p) => !started.has(key(p))).map((piece) => ({ piece, first }));
  pump();
  // This thread takes the merges found and the queued pieces too (merges first: the longer searches
  // early, so that the last ones are pieces, as short as searches get), then, while the last pieces
  // are out on other threads, the merges their ends show.
  for (;;) {
    // before each search this thread takes for itself (and after each it ran): the replies of the pieces
    // out on threads are read, and a thread that came free is given the next piece
    await eventLoopTurn();
    pump();
    if (await searches.runOne()) continue;
    if (!queue.length) {
      const out = plan.filter((p) => !finished.has(key(p))).map((p) => started.get(key(p))!);
      if (!out.length) break;
      // a piece (or merge) a thread holds behind the one it is in is this thread's, rather than waiting
      if (await searches.takeBack()) continue;
      try {
        await Promise.race(out);
      } catch {
        break; // the failure is reported below
      }
      continue;
    }
    const { piece: p } = queue.shift()!;
    const outcome = await pieceHere(backend, work(p, first), opts);
    finish(p, outcome);
    piecesDone++;
    progress();
  }
  const out: UnitSpan[] = [];
  const settled = await Promise.allSettled(plan.map((p) => finished.get(key(p)) ?? started.get(key(p))!));
  // pieces started from a partial plan that the whole plan does not have (never, when the cuts hold)
  await Promise.allSettled([...started].filter(([k]) => !plan.some((p) => key(p) === k)).map(([, r]) => r));
  settled.forEach((o, i) => {
    if (o.status === 'rejected') throw o.reason;
    for (const s of o.value.spans) out.push({ ...s, unit: s.unit + plan[i]!.u0 });
    for (const r of o.value.recognitions) opts.onRecognition?.(r);
    for (const w of o.value.warnings) opts.warn?.(w);
  });
  searches.threadFreed = undefined;
  opts.onProgress?.(1);
  return { spans: out, plan };
}

/**
 * Each piece's speaker adaptation, fitted to the first pass's path over its stretch as soon as the first
 * pass has fixed the piece; what the track heard before the pieces fixed so far is then forgotten (a
 * piece of the final plan that no partial plan fixed, the last one, is fitted from what remains).
 */
class PieceAdaptations {
  private readonly fitted = new Map<string, SpeakerAdaptation | undefined>();

  constructor(readonly track: SpeakerTrack | null) {}

  /** The pieces fixed by the first pass's spans so far. */
  fix(pieces: readonly Piece[], first: readonly UnitSpan[]): void {
    if (!this.track || pieces.length === 0) return;
    for (const p of pieces) {
      const k = pieceKey(p);
      if (!this.fitted.has(k)) this.fitted.set(k, this.fit(p, first));
    }
    this.track.forget(pieces[pieces.length - 1]!.t1);
  }

  of(p: Piece, first: readonly UnitSpan[]): SpeakerAdaptation | undefined {
    const k = pieceKey(p);
    return this.fitted.has(k) ? this.fitted.get(k) : this.fit(p, first);
  }

  /**
   * None where the first pass left words of the piece unplaced: its path there lost the speech for a while
   * (en-mfa-testdata's hoarse speaker joined twice: a transform fitted to such a path placed five words
   * 3-7 s late), and the piece's own first search fits it as before.
   */
  private fit(p: Piece, first: readonly UnitSpan[]): SpeakerAdaptation | undefined {
    let placed = 0;
    for (const s of first) if (s.unit >= p.u0 && s.unit < p.u1) placed++;
    if (placed < (p.u1 - p.u0) * TRACKED_MIN_PLACED) return undefined;
    return this.track?.adaptationFor(p.t0, p.t1);
  }
}

/** Share of a piece's words its first pass must have placed for its path to fit the piece's adaptation. */
const TRACKED_MIN_PLACED = 0.95;

const pieceKey = (p: Piece): string => `${p.u0}:${p.u1}:${p.t0}:${p.t1}`;

/**
 * The pieces of the plan that a first pass committed up to `partial` already fixes: those the whole first
 * pass cuts the same way, since their cut depends on no span beyond PIECE_MAX after their start. Not the
 * plan's last piece, which runs to the file's end whatever was committed (a first pass that held one word
 * over a minute once handed a thread the rest of the file as one piece, searched for nothing).
 */
export function fixedPieces(
  partial: readonly UnitSpan[],
  unitCount: number,
  total: number,
  start = 0,
): Piece[] {
  if (partial.length < 2) return [];
  const reached = partial[partial.length - 1]!.end;
  const plan = planPieces([...partial], unitCount, total, start).slice(0, -1);
  const open = plan.findIndex((p) => reached <= p.t0 + PIECE_MAX + 1);
  return open < 0 ? plan : plan.slice(0, open);
}

/**
 * Where a first-pass window commits its path: the spans ending before `limit` (its guard zone), up to its
 * first derailment (a run of DERAILED_RUN or more placeable words skipped: hoarse, disfluent or fast
 * speech, where the path left the speech), cut in the widest gap among the last few of them. `newT`: where
 * the next window starts. `spans` count their units from `at`.
 */
export function commitPoint(
  units: readonly Unit[],
  at: number,
  spans: UnitSpan[],
  limit: number,
): { cut: number; newT: number } {
  // the placeable words skipped before each span (as ranAhead counts them)
  const runs = skippedRuns(units.slice(at, at + spans[spans.length - 1]!.unit + 1), spans);
  let trusted = spans.length - 1;
  for (let k = 0; k + 1 < spans.length; k++) {
    if (runs[k + 1]! >= DERAILED_RUN) {
      trusted = k;
      break;
    }
  }
  let lastIn = -1;
  for (let k = 0; k <= trusted; k++) if (spans[k]!.end <= limit) lastIn = k;
  if (lastIn < 0) lastIn = 0;
  let cut = lastIn;
  let widest = -1;
  for (let k = Math.max(0, lastIn - 8); k <= lastIn; k++) {
    const next = spans[k + 1];
    const gap = next ? next.start - spans[k]!.end : 0;
    if (gap > widest) {
      widest = gap;
      cut = k;
    }
  }
  const nextSpan = spans[cut + 1];
  const cutEnd = spans[cut]!.end;
  return { cut, newT: nextSpan ? (cutEnd + nextSpan.start) / 2 : cutEnd };
}

/** A window's path ran ahead of its speech when it skipped this share of the words it ran through ... */
const RAN_AHEAD_SHARE = 0.15;

/** ... or this share over the last RAN_AHEAD_TAIL words it placed ... */
const RAN_AHEAD_TAIL_SHARE = 0.2;
const RAN_AHEAD_TAIL = 30;

/**
 * ... in runs shorter than a derailment, over the spans it commits (ending before `limit`) up to its first
 * derailment. The joined dev sets' windows skip at most 13 % (en-mfa-testdata's hoarse speaker), most
 * under 5 %; windows where speech the text leaves out drew words in 14-48 % (docs/benchmarks.md). Text
 * the speaker left out, placed word by word, skips as many. A window whose path placed the text's words
 * on speech the text leaves out after a stretch it placed well runs ahead over its last words alone:
 * they skipped 25-27 % on timit-dev with 3 sentences left out (both English models), 14 % at most on the
 * joined dev sets' windows (VoxAngeles' word list on the npm model; the others 9 % at most).
 */
export function ranAhead(
  units: readonly Unit[],
  at: number,
  spans: readonly UnitSpan[],
  limit: number,
): boolean {
  if (spans.length === 0) return false;
  const runs = skippedRuns(units.slice(at, at + spans[spans.length - 1]!.unit + 1), spans);
  // the words skipped before each span committed after the first
  const gaps: number[] = [];
  for (let k = 1; k < spans.length && spans[k]!.end <= limit && runs[k]! < DERAILED_RUN; k++)
    gaps.push(runs[k]!);
  const share = (g: readonly number[]) => {
    const skipped = g.reduce((a, x) => a + x, 0);
    return skipped / (skipped + g.length + 1);
  };
  if (gaps.length === 0) return false;
  return (
    share(gaps) >= RAN_AHEAD_SHARE ||
    (gaps.length >= RAN_AHEAD_TAIL && share(gaps.slice(-RAN_AHEAD_TAIL)) >= RAN_AHEAD_TAIL_SHARE)
  );
}

/**
 * A window's path with the loop between words (segmentPass) stands in for its own path at once when it
 * places at least this share of the words the window's own path commits ...
 */
const LOOP_KEEPS_WORDS = 0.7;
/** ... over at least this share of the stretch they span. */
const LOOP_KEEPS_REACH = 0.85;

/**
 * Whether a window's path with the loop between words is its own path with speech the text leaves out
 * taken out of it: over the spans each commits (ending before `limit`), it places nearly as many words as
 * the window's own path, over nearly the same stretch. Speech the text leaves out inside one window is
 * then known at once; the next window cannot tell, since the path is back on its speech by then (French
 * ×3 with a sentence missing at three places: the loop path kept 80 of 96 words over 32.7 of 32.9 s, and
 * placed them 0.13 s off on average against 5.3 s). Where the loop took speech of the text's own (text the
 * speaker left out, placed word by word; a loop that cheap takes real speech where the model fits poorly)
 * it kept 31-61 % of the words, or stopped 12 s short of the window's own path (docs/benchmarks.md).
 */
export function loopFits(own: readonly UnitSpan[], looped: readonly UnitSpan[], limit: number): boolean {
  const a = own.filter((s) => s.end <= limit);
  const b = looped.filter((s) => s.end <= limit);
  if (a.length === 0 || b.length === 0) return false;
  const reach = (xs: readonly UnitSpan[]) => xs[xs.length - 1]!.end - xs[0]!.start;
  return b.length >= LOOP_KEEPS_WORDS * a.length && reach(b) >= LOOP_KEEPS_REACH * reach(a);
}

/**
 * A window whose path begins past its text's first words may place again the words the last window
 * committed this many seconds or less before its start (segmentPass).
 */
const REDO_SECONDS = 10;

/** Pass 1: word spans for the whole file (or the stretch [from, to) in seconds) from open-ended windows. */
export async function segmentPass(
  backend: AcousticBackend,
  samples: Samples,
  units: Unit[],
  opts: LongAudioOptions,
  progress: (done: number) => void = () => {},
  range: { from: number; to: number } = { from: 0, to: samples.length / SAMPLE_RATE },
  /** called with the spans committed so far, after every window */
  onCommit?: (committed: readonly UnitSpan[]) => void,
  /** hears the speaker on the committed words' frames (the pieces' adaptation) */
  track?: SpeakerTrack | null,
  /** the text's first windows may begin with speech it leaves out (WindowRequest.openStart) */
  openStarts = true,
): Promise<UnitSpan[]> {
  const win = opts.window ?? 45;
  const guard = opts.guard ?? 12;
  const total = range.to;
  const end = Math.min(samples.length, Math.round(total * SAMPLE_RATE));
  const base = { precision: opts.precision, garbage: opts.garbage, warn: opts.warn };
  const search = (req: WindowRequest): Promise<UnitSpan[]> =>
    backend.segmentWindow ? backend.segmentWindow(req) : backend.alignWindow(req);
  const out: UnitSpan[] = [];
  let t = range.from;
  let u = 0;
  // windows from the start held no word of the text
  let intro = false;
  // where the spans the last window committed begin in `out`: the next window may place their words again
  let committedFrom = 0;
  // the last window's path with the loop between words, when its own path ran ahead of the speech
  let alternative: { spans: UnitSpan[]; at: number; t: number; limit: number } | null = null;
  // the file's seconds before which the speaker track holds a window's frames (a window after a path with
  // the loop between words starts before it: ADR 0109)
  let keptTo = range.from;
  // A window's path with the loop between words replaces what the window committed (its path ran ahead),
  // and the next window starts after the loop path's commits.
  const takeLoopPath = (alt: { spans: UnitSpan[]; at: number; t: number; limit: number }) => {
    alternative = null;
    out.length = committedFrom;
    const c = commitPoint(units, alt.at, alt.spans, alt.limit);
    for (let k = 0; k <= c.cut; k++) out.push({ ...alt.spans[k]!, unit: alt.spans[k]!.unit + alt.at });
    u = alt.at + alt.spans[c.cut]!.unit + 1;
    t = Math.max(c.newT, alt.t + 1);
  };
  while (u < units.length && t < total) {
    progress((t - range.from) / (total - range.from));
    const remaining = total - t;
    const from = Math.round(t * SAMPLE_RATE);
    const last = remaining <= win;
    // Enough text for a fast stretch of speech; more only makes the grammar larger.
    const perSecond = (units.length - u) / remaining;
    const n = last ? units.length - u : Math.min(units.length - u, Math.ceil(perSecond * win * 1.5) + 20);
    const to = last ? end : Math.min(end, from + Math.round(win * SAMPLE_RATE));
    const windowFrom = (first: number, headSkipMax?: number, wordLoop?: true) =>
      search({
        ...base,
        samples: samples.window(from, to),
        offset: t,
        units: units.slice(first, u + n),
        // the last window holds the rest of the text: a run of it left unplaced is a derailment there
        openEnd: !last,
        // until the text's first word is placed, the recording may hold speech before it (an introduction)
        openStart: openStarts && first === 0 && !wordLoop,
        afterIntro: openStarts && first === 0 && intro,
        headSkipMax,
        wordLoop,
        // (the speaker track keeps the frames of the first search's path, whichever is taken later)
        listen: wordLoop ? undefined : (track ?? undefined),
      });
    let spans = await windowFrom(u);
    // the unit the window's text starts at
    let at = u;
    // A path that begins past several words of its text (as many as a derailment skips) after a window
    // that committed words: either the speaker left them out, or the last window's path ran ahead of the
    // speech (where the model fits it poorly it may place two words of the text on one spoken word) and
    // committed words not spoken yet. Then this window's path had no choice but to jump, and in a text
    // that repeats itself (a word list read three times) it jumps to the same words' next reading: a whole
    // reading lost (VoxAngeles' word list read three times on the npm model: 40 words not found, the rest
    // 20-40 s off). The window is searched again from as many of the words the last window committed in
    // its last REDO_SECONDS, its start hop reaching as far as before: a path that starts among them places
    // them again here, and their earlier spans are dropped. (Further back, a word placed again here is
    // more likely another of its occurrences than a word committed that far ahead of its speech.)
    const jump = spans[0]?.unit ?? 0;
    const skipped = u > 0 && spans.length > 0 ? leadingUnplaced(units.slice(u, u + jump), spans) : 0;
    let back = 0;
    if (skipped >= DERAILED_RUN)
      while (
        back < Math.min(skipped, out.length - committedFrom) &&
        out[out.length - 1 - back]!.start >= t - REDO_SECONDS
      )
        back++;
    if (back > 0) {
      const first = out[out.length - back]!.unit;
      const again = await windowFrom(first, Math.max(OPEN_HEAD_SKIP_MAX, u - first + jump));
      if (again.length > 0 && again[0]!.unit + first < u) {
        const replaced = again[0]!.unit + first;
        while (out.length > 0 && out[out.length - 1]!.unit >= replaced) out.pop();
        spans = again;
        at = first;
      }
    }
    const limit = t + win - guard;
    const ran = ranAhead(units, at, spans, limit);
    // The last window's path ran ahead of its speech, and this one's too: every window after speech the
    // text leaves out starts ahead of its speech, with no way back (ranAhead). The last window's search
    // with the loop between words replaces what it committed, and this window is searched again after it.
    if (alternative && ran) {
      takeLoopPath(alternative);
      continue;
    }
    alternative = null;
    if (last) {
      track?.keep(total, keptTo);
      backend.release?.();
      for (const s of spans) out.push({ ...s, unit: s.unit + at });
      break;
    }
    if (spans.length === 0) {
      committedFrom = out.length;
      if (u === 0) intro = true;
      track?.keep(t, keptTo);
      keptTo = Math.max(keptTo, t);
      backend.release?.();
      // Nothing fits in this window (music, silence, speech not in the text): step over a third of it (a
      // window that only begins with such a stretch still places the speech after it the next time).
      t += win / 3;
      continue;
    }
    const { cut, newT } = commitPoint(units, at, spans, limit);
    committedFrom = out.length;
    for (let k = 0; k <= cut; k++) out.push({ ...spans[k]!, unit: spans[k]!.unit + at });
    // the speaker as heard on the words committed (the next window starts at newT)
    track?.keep(newT, keptTo);
    keptTo = Math.max(keptTo, newT);
    backend.release?.();
    // A path that ran ahead of its speech: speech the text leaves out, or words of the text the speaker
    // left out, placed here and there. The window is searched with the loop between words, from where its
    // path started and with no long jump at its start (a long jump found the same words further on). That
    // path is taken at once when it is this window's path with a stretch of speech taken out (loopFits);
    // else it is kept for the next window to judge: the next window's path runs ahead too only after
    // speech the text leaves out.
    let loopedNow = false;
    if (backend.segmentWindow && ran) {
      const start = at + spans[0]!.unit;
      const looped = await windowFrom(start, DERAILED_RUN, true);
      if (looped.length > 0) {
        alternative = { spans: looped, at: start, t, limit };
        loopedNow = loopFits(spans, looped, limit);
      }
    }
    if (onCommit) {
      // the pieces out on threads while this pass runs: their replies are read, and they are given more
      // (of the spans no later window places again: all but this window's)
      await eventLoopTurn();
      const settled = out.slice(0, committedFrom);
      if (settled.length > 0) onCommit(settled);
    }
    if (alternative && loopedNow) takeLoopPath(alternative);
    else {
      u = at + spans[cut]!.unit + 1;
      t = Math.max(newT, t + 1);
    }
  }
  // Every window was taken for speech before the text, the text's own speech with it (speech the model
  // fits poorly throughout): read again without that judgement.
  if (out.length === 0 && intro && openStarts)
    return segmentPass(backend, samples, units, opts, progress, range, onCommit, track, false);
  progress(1);
  return out;
}

/** Seconds of speech before the text's first placed word from which the first piece starts after it ... */
const HEAD_SPEECH = 2;
/**
 * ... at most this long before that word (the first pass places it within tens of ms, nearly always), and
 * SKIPPED_WORD_SECONDS more for each of the text's first words the first pass left out.
 */
const HEAD_MARGIN = 1;
const FRAME_S = 0.01;

/**
 * Where the first piece starts: 0, or, when the first pass placed the text's first word after stretches of
 * speech (an introduction the transcript leaves out, found by the first window's searches), in the pause
 * before that word's stretch. A piece from 0 searched closed drew the text's first words back into the
 * introduction (22.8 s of other sentences before timit-dev's 80: the first 14 words placed in it).
 */
export function textStart(samples: Samples, units: readonly Unit[], first: readonly UnitSpan[]): number {
  const s = first[0];
  if (!s || s.start < HEAD_SPEECH) return 0;
  // the text's first words the first pass left out (the loop before the text took them): they lie in the
  // stretch of speech the first word placed starts in, or just before it
  const skipped = leadingUnplaced(units, first);
  if (skipped > LEADING_SKIPPED_MAX) return 0;
  const to = Math.min(samples.length, Math.round((s.start + 1) * SAMPLE_RATE));
  const { levels, tilts } = frameMeasures(samples.window(0, to));
  const { regions } = analyseSpeech(levels, tilts);
  // the stretch the word starts in, the pause before it, and the speech before that pause
  let a = Math.min(regions.length, Math.floor(s.start / FRAME_S));
  while (a > 0 && regions[a - 1]) a--;
  let b = a;
  while (b > 0 && !regions[b - 1]) b--;
  let speech = 0;
  for (let f = 0; f < b; f++) speech += regions[f]!;
  if (speech * FRAME_S < HEAD_SPEECH) return 0;
  const earliest = s.start - HEAD_MARGIN - skipped * SKIPPED_WORD_SECONDS;
  return Math.round(Math.max(((a + b) / 2) * FRAME_S, earliest) * 10000) / 10000;
}

export interface Piece {
  /** units [u0, u1) */
  u0: number;
  u1: number;
  /** audio [t0, t1) in seconds */
  t0: number;
  t1: number;
}

/** Cuts the file into pieces at pauses between first-pass spans. */
export function planPieces(
  first: UnitSpan[],
  unitCount: number,
  total: number,
  /** where the first piece starts (textStart) */
  start = 0,
): Piece[] {
  const pieces: Piece[] = [];
  let u0 = 0;
  let t0 = start;
  let k = 0;
  while (k < first.length - 1) {
    // Candidate cuts: after span j, for spans ending between PIECE_MIN and PIECE_MAX from the piece start.
    // A cut where the first pass skipped words is not trusted: their audio may lie on either side of it
    // (a derailed stretch leaves a wide "pause" where the skipped words were spoken). Such a cut is taken
    // only when the span offers no other.
    let best = -1;
    let widest = -Infinity;
    let bestSkipping = -1;
    let widestSkipping = -Infinity;
    let j = k;
    for (; j < first.length - 1; j++) {
      const end = first[j]!.end;
      if (end - t0 > PIECE_MAX) break;
      if (end - t0 < PIECE_MIN) continue;
      const gap = first[j + 1]!.start - end;
      if (first[j + 1]!.unit - first[j]!.unit > 1) {
        if (gap > widestSkipping) {
          widestSkipping = gap;
          bestSkipping = j;
        }
      } else if (gap > widest) {
        widest = gap;
        best = j;
      }
    }
    if (best < 0) best = bestSkipping;
    if (j >= first.length - 1 && first[first.length - 1]!.end - t0 <= PIECE_MAX) break;
    if (best < 0) best = Math.max(k, j - 1);
    const next = first[best + 1]!;
    const cutT = (first[best]!.end + next.start) / 2;
    // Units the first pass did not place go with the piece before the cut.
    pieces.push({ u0, u1: next.unit, t0, t1: cutT });
    u0 = next.unit;
    t0 = cutT;
    k = best + 1;
  }
  pieces.push({ u0, u1: unitCount, t0, t1: total });
  return pieces.filter((p) => p.u1 > p.u0 && p.t1 > p.t0);
}

/**
 * One piece: the closed search over its stretch (samples of the piece alone, starting at `offset`
 * seconds in the file), or, over minutes where the first pass placed nothing, open windows again. Spans
 * come back with unit indices into the piece's units and times in the file; the first pass's spans stay
 * when the search does worse than them.
 */
export async function alignPiece(
  backend: AcousticBackend,
  samples: Samples,
  offset: number,
  units: Unit[],
  coarse: UnitSpan[],
  opts: LongAudioOptions,
  /** the speaker adaptation the first pass's path gave this piece (SpeakerTrack) */
  adaptation?: SpeakerAdaptation,
  /** a stretch's search rather than a piece's (PieceWork's SearchShape) */
  shape: SearchShape = {},
): Promise<UnitSpan[]> {
  const duration = samples.length / SAMPLE_RATE;
  if (duration > PIECE_LIMIT) {
    // The first pass placed nothing over minutes of this piece: it lost its way there. One closed
    // search over minutes seldom finds a path, so the stretch is read again with open windows from its
    // first word.
    const again = await segmentPass(backend, samples, units, { ...opts, onRecognition: undefined });
    return again.length > coarse.length ? again.map((s) => shiftSpan(s, offset)) : coarse;
  }
  const recognitions: Recognition[] = [];
  const spans = await backend.alignWindow({
    precision: opts.precision,
    garbage: opts.garbage,
    warn: opts.warn,
    samples: samples.all(),
    offset,
    units,
    openEnd: false,
    onRecognition: opts.onRecognition ? (r) => recognitions.push(r) : undefined,
    adaptation,
    expected: coarse.length,
    leadingLoop: shape.leadingLoop,
    forced: shape.forced,
  });
  backend.release?.();
  if (spans.length < coarse.length * 0.8) return coarse;
  for (const r of recognitions) opts.onRecognition?.(r);
  return spans;
}

/**
 * A piece (or a repair's search) aligned on the thread that calls, the main one or a piece thread
 * (align/window-worker.ts), the same way on each: its spans, and its recognitions (when `recognise`) and
 * warnings kept for the caller to pass on in the file's order.
 */
export async function pieceOutcome(
  backend: AcousticBackend,
  w: PieceWork,
  s: PieceSettings & Pick<LongAudioOptions, 'window' | 'guard'>,
): Promise<PieceOutcome> {
  const recognitions: Recognition[] = [];
  const warnings: string[] = [];
  const spans = await alignPiece(
    backend,
    w.samples,
    w.offset,
    w.units,
    w.coarse,
    {
      precision: s.precision,
      garbage: s.garbage,
      window: s.window,
      guard: s.guard,
      warn: (m) => warnings.push(m),
      onRecognition: s.recognise ? (r) => recognitions.push(r) : undefined,
    },
    w.adaptation,
    { leadingLoop: w.leadingLoop, forced: w.forced },
  );
  return { spans, recognitions, warnings };
}

/** A piece on this thread, with this file's settings. */
const pieceHere = (backend: AcousticBackend, w: PieceWork, opts: LongAudioOptions) =>
  pieceOutcome(backend, w, {
    precision: opts.precision,
    garbage: opts.garbage,
    window: opts.window,
    guard: opts.guard,
    recognise: opts.onRecognition !== undefined && w.recognise !== false,
  });

function shiftSpan(s: UnitSpan, by: number): UnitSpan {
  const r = (x: number) => Math.round((x + by) * 10000) / 10000;
  return {
    ...s,
    start: r(s.start),
    end: r(s.end),
    phones: s.phones.map((p) => ({ ...p, start: r(p.start), end: r(p.end) })),
  };
}

/** Pass 2: the closed search per piece, in order on this thread. */
async function piecePass(
  backend: AcousticBackend,
  samples: Samples,
  units: Unit[],
  first: UnitSpan[],
  opts: LongAudioOptions,
  progress: (done: number) => void,
  adaptations: PieceAdaptations,
): Promise<{ spans: UnitSpan[]; plan: Piece[] }> {
  const total = samples.length / SAMPLE_RATE;
  if (first.length === 0) return { spans: [], plan: [] };
  const out: UnitSpan[] = [];
  const plan = planPieces(first, units.length, total, textStart(samples, units, first));
  for (const p of plan) {
    progress(p.t0 / total);
    const coarse = first
      .filter((s) => s.unit >= p.u0 && s.unit < p.u1)
      .map((s) => ({ ...s, unit: s.unit - p.u0 }));
    const piece = pieceSamples(samples, p);
    const spans = await alignPiece(
      backend,
      piece,
      p.t0,
      units.slice(p.u0, p.u1),
      coarse,
      opts,
      adaptations.of(p, first),
    );
    for (const s of spans) out.push({ ...s, unit: s.unit + p.u0 });
  }
  progress(1);
  return { spans: out, plan };
}

/** A piece's samples as a recording of their own (the search reads it from its start). */
export function pieceSamples(samples: Samples, p: Piece): Samples {
  return samples.piece(...sampleBounds({ from: p.t0, to: p.t1 }));
}
