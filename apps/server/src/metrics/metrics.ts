// Prometheus metrics of one process (prom-client). Two kinds of series:
// - what this process saw: HTTP requests by route, the jobs it ran (outcome, duration, real-time factor
//   by engine and language), its PostgreSQL pool, its Redis connections and its data disk;
// - what the database says for the whole deployment, read at scrape time: queue depth by state, live
//   and busy workers (from the `workers` heartbeat registry). Every process reports the same figures
//   there, so a dashboard takes max() over instances rather than sum().
// Each series means what its name says, and each is tested by faulting what it measures and scraping
// (metrics/metrics.test.ts, reliability/dependency-restart.test.ts, reliability/disk-full.test.ts):
// Redis frozen reads 0 (an answered PING, not a socket state), a dead worker's job is `stalled`, not
// `running`, the pool figures are taken before the scrape's own queries.
// Each process has its own registry (no prom-client global), so tests can build several apps at once.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { runningJobCounts, waitingJobCounts } from '../db/jobs.ts';
import { workerBeats } from '../db/workers.ts';
import { poolOf } from '../db/postgres.ts';
import type { Db } from '../db/database.ts';
import { freeBytes } from '../reliability/disk-space.ts';
import { isLive } from '../jobs/worker-registry.ts';

/** A scrape never waits longer than this for the database (a frozen one). */
const COLLECT_TIMEOUT_MS = 1000;
/** Nor longer than this for one Redis PING. */
const REDIS_PING_MS = 250;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export type JobOutcome = 'completed' | 'failed' | 'cancelled' | 'requeued' | 'abandoned';

export interface JobLabels {
  kind: string;
  outcome: JobOutcome;
  engine: string;
  language: string;
}

/** Resolves true when one Redis connection answered a PING. */
export type RedisPing = () => Promise<boolean>;

interface PoolFigures {
  total: number;
  idle: number;
  waiting: number;
}

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly httpErrors: Counter<'method' | 'route' | 'status_code'>;
  readonly jobRuns: Counter<'kind' | 'outcome' | 'engine' | 'language'>;
  readonly jobDuration: Histogram<'kind' | 'outcome' | 'engine' | 'language'>;
  readonly realTimeFactor: Histogram<'engine' | 'language'>;
  private readonly redis = new Map<string, RedisPing>();
  /** taken at the start of each scrape, before its own queries borrow connections */
  private poolFigures: PoolFigures | null = null;
  private pool: { totalCount: number; idleCount: number; waitingCount: number } | null = null;

  constructor(role: 'api' | 'worker') {
    this.registry.setDefaultLabels({ role });
    collectDefaultMetrics({ register: this.registry, prefix: 'tazamun_process_' });
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'tazamun_http_request_duration_seconds',
      help: 'HTTP request latency by route template, method and status code (event streams not included)',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.httpErrors = new Counter({
      name: 'tazamun_http_errors_total',
      help:
        'HTTP responses with a 5xx status that were failures to serve, by route template, method and status ' +
        'code; deliberate refusals (507 insufficient_storage, 503 server_busy) and probes are not errors',
      labelNames: ['method', 'route', 'status_code'],
      registers,
    });
    this.jobRuns = new Counter({
      name: 'tazamun_job_runs_total',
      help: 'Job runs ended in this process, by kind, outcome, engine and language',
      labelNames: ['kind', 'outcome', 'engine', 'language'],
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'tazamun_job_duration_seconds',
      help: 'Wall time of a job run in this process, by kind, outcome, engine and language',
      labelNames: ['kind', 'outcome', 'engine', 'language'],
      buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600],
      registers,
    });
    this.realTimeFactor = new Histogram({
      name: 'tazamun_alignment_real_time_factor',
      help: 'Engine processing time divided by audio duration, per completed alignment',
      labelNames: ['engine', 'language'],
      buckets: [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 5],
      registers,
    });
    const redisUp = new Gauge({
      name: 'tazamun_redis_up',
      help: "1 when this process's Redis connection answered a PING within 250 ms at this scrape, by connection",
      labelNames: ['connection'],
      registers,
      collect: async () => {
        const answers = await Promise.all(
          [...this.redis].map(async ([connection, ping]) => {
            const ok = await within(ping(), REDIS_PING_MS).catch(() => false);
            return [connection, ok] as const;
          }),
        );
        redisUp.reset();
        for (const [connection, ok] of answers) redisUp.set({ connection }, ok ? 1 : 0);
      },
    });
  }

  jobEnded(labels: JobLabels, seconds: number | null): void {
    this.jobRuns.inc({ ...labels });
    if (seconds !== null) this.jobDuration.observe({ ...labels }, seconds);
  }

  /** One Redis connection of this process, pinged at each scrape. */
  addRedis(connection: string, ping: RedisPing): void {
    this.redis.set(connection, ping);
  }

  /**
   * The deployment-wide figures read from the database at scrape time, this process's pool, and the
   * free space of its data disk (`dataDir`, where uploads, results and the SQLite file go).
   */
  watchDatabase(db: Db, dataDir: string): void {
    const registers = [this.registry];
    // One read of the database per scrape, whichever gauge prom-client collects first.
    const counts = {
      depth: new Map<string, number>(),
      stalled: new Map<string, number>(),
      live: 0,
      busy: 0,
      up: 0,
    };
    let reading: Promise<void> | null = null;
    let readAt = 0;
    const read = (): Promise<void> => {
      if (reading && Date.now() - readAt < 500) return reading;
      readAt = Date.now();
      reading = (async () => {
        try {
          const [rows, held, workers] = await within(
            Promise.all([waitingJobCounts(db), runningJobCounts(db), workerBeats(db)]),
            COLLECT_TIMEOUT_MS,
          );
          const now = new Date();
          const live = new Set(workers.filter((w) => isLive(w, now)).map((w) => w.id));
          counts.depth = new Map(rows.map((r) => [`${r.kind}:${r.status}`, Number(r.n)]));
          counts.stalled = new Map();
          for (const h of held) {
            // a job is running while its worker's heartbeat is current; otherwise it waits for its
            // lease to run out (a dead worker) or for the database to come back
            const key = `${h.kind}:${h.worker_id && live.has(h.worker_id) ? 'processing' : 'stalled'}`;
            const map = key.endsWith('stalled') ? counts.stalled : counts.depth;
            map.set(key, (map.get(key) ?? 0) + Number(h.n));
          }
          counts.live = live.size;
          counts.busy = workers.filter((w) => live.has(w.id) && Number(w.running) > 0).length;
          counts.up = 1;
        } catch {
          counts.up = 0;
        }
      })();
      return reading;
    };
    const up = new Gauge({
      name: 'tazamun_database_up',
      help: '1 when the database answered within a second at this scrape',
      registers,
      collect: async () => {
        await read();
        up.set(counts.up);
      },
    });
    const state = { queued: 'waiting', processing: 'running', stalled: 'stalled', failed: 'failed' } as const;
    const depth = new Gauge({
      name: 'tazamun_queue_jobs',
      help:
        'Jobs by kind and state, read from the database: waiting (queued), running (held by a live worker), ' +
        'stalled (held by a worker whose heartbeat stopped, until its lease runs out), failed',
      labelNames: ['kind', 'state'],
      registers,
      collect: async () => {
        await read();
        depth.reset();
        // no figure rather than a stale one while the database is away; tazamun_database_up says why
        if (!counts.up) return;
        for (const kind of ['align', 'video', 'realign', 'adapt'])
          for (const [status, name] of Object.entries(state)) {
            const map = status === 'stalled' ? counts.stalled : counts.depth;
            depth.set({ kind, state: name }, map.get(`${kind}:${status}`) ?? 0);
          }
      },
    });
    const live = new Gauge({
      name: 'tazamun_workers_live',
      help: 'Processes running jobs whose heartbeat is current (the workers registry), read from the database',
      registers,
      collect: async () => {
        await read();
        live.reset();
        if (counts.up) live.set(counts.live);
      },
    });
    const busy = new Gauge({
      name: 'tazamun_workers_busy',
      help: 'Live workers running at least one job, read from the database',
      registers,
      collect: async () => {
        await read();
        busy.reset();
        if (counts.up) busy.set(counts.busy);
      },
    });
    const disk = new Gauge({
      name: 'tazamun_disk_free_bytes',
      help: "Bytes this process may still write on its data disk (DATA_DIR's file system)",
      registers,
      collect: async () => {
        disk.reset();
        const free = await within(freeBytes(dataDir), COLLECT_TIMEOUT_MS).catch(() => null);
        if (free !== null) disk.set(free);
      },
    });
    const pool = poolOf(db);
    if (pool) {
      this.pool = pool;
      const connections = new Gauge({
        name: 'tazamun_db_pool_connections',
        help:
          "This process's PostgreSQL pool: total, idle, and requests waiting for a connection (taken before " +
          "the scrape's own queries)",
        labelNames: ['state'],
        registers,
        collect: () => {
          const f = this.poolFigures ?? {
            total: pool.totalCount,
            idle: pool.idleCount,
            waiting: pool.waitingCount,
          };
          connections.set({ state: 'total' }, f.total);
          connections.set({ state: 'idle' }, f.idle);
          connections.set({ state: 'waiting' }, f.waiting);
        },
      });
    }
  }

  async scrape(): Promise<string> {
    const pool = this.pool;
    this.poolFigures = pool
      ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }
      : null;
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}
