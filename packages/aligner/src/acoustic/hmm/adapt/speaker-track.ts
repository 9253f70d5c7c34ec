// A long recording's speaker as its first pass heard it (align/long-audio.ts): the feature-adaptation
// statistics of the first pass's path (adapt/fmllr.ts), kept in blocks of the file's time, so that each piece
// of the second pass is searched once, with a transform fitted to the first pass's path over its own
// stretch, instead of twice (a first search to fit the transform to, then the adapted one).
//
// A first-pass window's path is recorded frame by frame while it is searched; its caller then keeps the
// frames of the words it commits (the rest are searched again by the next window) and they are added to
// their blocks. A piece's statistics are the blocks' over its stretch, a block it covers in part weighted
// by the share of the block's frames' seconds it covers.
import type { SpeakerAdaptation, SpeakerTrack } from '../../backend.ts';
import type { Features } from '../frontend/features.ts';
import type { GaussianTopN } from '../scoring/gaussians.ts';
import type { FrameStats } from './map.ts';
import { estimateTransform } from './fmllr.ts';
import type { AdaptationStats } from './fmllr.ts';

/** Seconds of the file per block of statistics (a piece's stretch is read to this resolution). */
export const BLOCK_SECONDS = 2;

/** One window's path, frame by frame, until its caller says which part of it to keep. */
class PathRecording implements FrameStats {
  feats: Features | null = null;
  topn: GaussianTopN | null = null;
  frames: number[] = [];
  senones: number[] = [];

  constructor(
    /** seconds of the window's first frame in the file */
    readonly offset: number,
  ) {}

  add(feats: Features, topn: GaussianTopN, t: number, senone: number): void {
    this.feats = feats;
    this.topn = topn;
    this.frames.push(t);
    this.senones.push(senone);
  }
}

/**
 * A block's statistics, the CMN means of the frames added (summed: the windows' differ), and the seconds
 * its frames span (a stretch that covers them all takes the whole block).
 */
interface Block {
  stats: AdaptationStats;
  cmnSum: Float64Array | null;
  from: number;
  to: number;
}

export class SpeakerBlocks implements SpeakerTrack {
  private readonly blocks = new Map<number, Block>();
  /** the last window's path, until keep() */
  private pending: PathRecording | null = null;

  constructor(
    /** empty statistics of the decoder's model */
    private readonly newStats: () => AdaptationStats,
    private readonly frameRate: number,
    /** speech frames below which a stretch gets no adaptation (the window's own rule) */
    private readonly minFrames: number,
  ) {}

  /** Statistics that record a search's path over a window starting `offset` seconds into the file. */
  recorder(offset: number): FrameStats {
    return new PathRecording(offset);
  }

  /** The recording of the search whose spans the window keeps (the others are dropped). */
  heard(recording: FrameStats): void {
    this.pending = recording instanceof PathRecording ? recording : null;
  }

  keep(upTo: number, from = -Infinity): void {
    const r = this.pending;
    this.pending = null;
    if (!r?.feats || !r.topn) return;
    const mean = r.feats.cmn?.mean;
    for (let i = 0; i < r.frames.length; i++) {
      const time = r.offset + r.frames[i]! / this.frameRate;
      if (time >= upTo || time < from) continue;
      const b = Math.floor(time / BLOCK_SECONDS);
      let block = this.blocks.get(b);
      if (!block) {
        block = {
          stats: this.newStats(),
          cmnSum: mean ? new Float64Array(mean.length) : null,
          from: time,
          to: time,
        };
        this.blocks.set(b, block);
      }
      block.from = Math.min(block.from, time);
      block.to = Math.max(block.to, time + 1 / this.frameRate);
      block.stats.add(r.feats, r.topn, r.frames[i]!, r.senones[i]!);
      if (block.cmnSum && mean) for (let c = 0; c < mean.length; c++) block.cmnSum[c]! += mean[c]!;
      else block.cmnSum = null;
    }
  }

  adaptationFor(from: number, to: number): SpeakerAdaptation | undefined {
    const stats = this.newStats();
    let cmn: Float64Array | null | undefined;
    for (const block of this.blocks.values()) {
      const share = Math.min(
        1,
        (Math.min(to, block.to) - Math.max(from, block.from)) / (block.to - block.from),
      );
      if (share <= 0) continue;
      stats.merge(block.stats, share);
      if (cmn === undefined && block.cmnSum) cmn = new Float64Array(block.cmnSum.length);
      if (cmn && block.cmnSum) for (let c = 0; c < cmn.length; c++) cmn[c]! += share * block.cmnSum[c]!;
      else cmn = null;
    }
    if (stats.frames < this.minFrames) return undefined;
    const tf = estimateTransform(stats);
    // the mean the frames' windows subtracted, over the frames the statistics weigh
    if (cmn) tf.cmn = cmn.map((v) => v / stats.frames);
    return tf;
  }

  forget(t: number): void {
    for (const b of [...this.blocks.keys()]) if ((b + 1) * BLOCK_SECONDS <= t) this.blocks.delete(b);
  }
}
