// A bound on the ffprobe processes uploads start. Every accepted upload is probed; admitted all at once,
// 200 concurrent uploads on two cores shared the CPU, all finished together and some passed the
// client's 30 s time-out (docs/reliability.md). Now at most `concurrency` probes run, up to `queue`
// uploads wait their turn in order, and any beyond that get a 503 `server_busy` with Retry-After at
// once instead of hanging.
import type { Config } from '../../config.ts';
import { createError } from '../../errors.ts';
import type { AppError } from '../../errors.ts';

export class ProbeGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** a moving average of one probe's wall time, for the Retry-After estimate */
  private avgMs = 250;

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {
    if (!(concurrency >= 1)) throw new Error('the probe gate needs a concurrency of at least 1');
  }

  get stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** True when a new upload could not even wait: checked before its body is read, to spare the bytes. */
  get full(): boolean {
    return this.running >= this.concurrency && this.waiting.length >= this.queue;
  }

  /** Seconds until a slot is likely free: the queue ahead divided over the slots, at least 1. */
  retryAfterSeconds(): number {
    const ahead = this.waiting.length + 1;
    return Math.max(1, Math.min(60, Math.ceil((ahead * this.avgMs) / this.concurrency / 1000)));
  }

  busyError(): AppError {
    const seconds = this.retryAfterSeconds();
    return createError('server_busy', { seconds }, { retry_after: seconds });
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running += 1;
    else if (this.waiting.length >= this.queue) throw this.busyError();
    // the slot is handed over by the finishing probe, so `running` already counts this one
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.avgMs = 0.8 * this.avgMs + 0.2 * (performance.now() - t0);
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** UPLOAD_PROBE_CONCURRENCY / UPLOAD_PROBE_QUEUE as the boot config parsed them. */
export function probeGateFor(config: Config): ProbeGate {
  return new ProbeGate(config.uploadProbe.concurrency, config.uploadProbe.queue);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** bounds the ffprobe runs of uploads in this process */
    probeGate: ProbeGate;
  }
}
