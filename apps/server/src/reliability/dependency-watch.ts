// One log line when a dependency goes and one when it comes back (issue 29, item 8). Each process probes
// what it depends on (the database, Redis) every second, each probe bounded, so a frozen Redis — which
// keeps its connections and answers nothing — is noticed like a stopped one, within about a second and a
// half. The lines are `dependency unavailable` (warn, with the error) and `dependency back` (info, with
// `down_ms`). Everything else that fails during the outage (heartbeats, polls, requests) logs at debug
// (`logFailure` in unavailable.ts), so an outage is two lines, not hundreds.
import { isUnavailable } from './unavailable.ts';

export type Dependency = 'database' | 'redis';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** A probe resolves when the dependency answers; it rejects (or resolves false) when it does not. */
export type Probe = () => Promise<unknown>;

interface Watched {
  probe: Probe;
  /** ms since the epoch the dependency was last seen away; null while it answers */
  downSince: number | null;
  probing: boolean;
}

export const WATCH_EVERY_MS = 1000;
export const PROBE_TIMEOUT_MS = 500;

export class DependencyWatch {
  private readonly watched = new Map<Dependency, Watched>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: Log,
    private readonly options: { everyMs?: number; timeoutMs?: number } = {},
  ) {}

  watch(name: Dependency, probe: Probe): void {
    this.watched.set(name, { probe, downSince: null, probing: false });
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.check(), this.options.everyMs ?? WATCH_EVERY_MS);
    this.timer.unref();
    void this.check();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** False while the last probe of `name` failed (unknown names answer true). */
  isUp(name: Dependency): boolean {
    return (this.watched.get(name)?.downSince ?? null) === null;
  }

  /** Probes every dependency once; resolves when each has answered or timed out. */
  async check(): Promise<void> {
    await Promise.all([...this.watched].map(([name, w]) => this.probeOne(name, w)));
  }

  private async probeOne(name: Dependency, w: Watched): Promise<void> {
    if (w.probing) return;
    w.probing = true;
    const timeoutMs = this.options.timeoutMs ?? PROBE_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    try {
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      const answer = await Promise.race([w.probe(), late]);
      if (answer === false) throw new Error('the probe failed');
      if (w.downSince !== null) {
        this.log.info({ dependency: name, down_ms: Date.now() - w.downSince }, 'dependency back');
        w.downSince = null;
      }
    } catch (err) {
      if (w.downSince === null) {
        w.downSince = Date.now();
        const e = err as { message?: string; code?: string };
        this.log.warn(
          { dependency: name, err: e.message ?? String(err), code: e.code, unavailable: isUnavailable(err) },
          'dependency unavailable',
        );
      }
    } finally {
      clearTimeout(timer);
      w.probing = false;
    }
  }
}
