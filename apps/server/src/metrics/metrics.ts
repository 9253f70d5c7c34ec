// Prometheus metrics of one process (prom-client). Two kinds of series:
// - what this process saw: HTTP requests by route, the jobs it ran (outcome, duration, real-time factor
//   by engine and language), its PostgreSQL pool and its Redis connections;
// - what the database says for the whole deployment, read at scrape time: queue depth by state and the
//   workers holding a job. Every API process reports the same figures there, so a dashboard takes max()
//   over instances rather than sum().
// Each process has its own registry (no prom-client global), so tests can build several apps at once.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sql } from 'kysely';
import { poolOf } from '../db/postgres.ts';
import type { Db } from '../db/database.ts';

/** A scrape never waits longer than this for one figure (a frozen database or Redis). */
const COLLECT_TIMEOUT_MS = 1000;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export type JobOutcome = 'completed' | 'failed' | 'cancelled' | 'requeued';

export interface JobLabels {
  kind: string;
  outcome: JobOutcome;
  engine: string;
  language: string;
}

/** A Redis connection's state as ioredis names it ('ready' when usable). */
export type RedisStatusSource = () => Record<string, string>;

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly httpErrors: Counter<'method' | 'route' | 'status_code'>;
  readonly jobRuns: Counter<'kind' | 'outcome' | 'engine' | 'language'>;
  readonly jobDuration: Histogram<'kind' | 'outcome' | 'engine' | 'language'>;
  readonly realTimeFactor: Histogram<'engine' | 'language'>;
  private readonly redisSources: RedisStatusSource[] = [];

  constructor(role: 'api' | 'worker') {
    this.registry.setDefaultLabels({ role });
    collectDefaultMetrics({ register: this.registry, prefix: 'tazamun_process_' });
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'tazamun_http_request_duration_seconds',
      help: 'HTTP request latency by route template, method and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.httpErrors = new Counter({
      name: 'tazamun_http_errors_total',
      help: 'HTTP responses with a 5xx status, by route template, method and status code',
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
      help: "1 when this process's Redis connection is ready, by connection",
      labelNames: ['connection'],
      registers,
      collect: () => {
        redisUp.reset();
        for (const source of this.redisSources)
          for (const [connection, status] of Object.entries(source()))
            redisUp.set({ connection }, status === 'ready' ? 1 : 0);
      },
    });
  }

  jobEnded(labels: JobLabels, seconds: number | null): void {
    this.jobRuns.inc({ ...labels });
    if (seconds !== null) this.jobDuration.observe({ ...labels }, seconds);
  }

  addRedis(source: RedisStatusSource): void {
    this.redisSources.push(source);
  }

  /** The deployment-wide figures read from the database at scrape time, and this process's pool. */
  watchDatabase(db: Db, leaseStillValidSince: () => string): void {
    const registers = [this.registry];
    // One read of the database per scrape, whichever gauge prom-client collects first.
    const counts = { depth: new Map<string, number>(), busy: 0, up: 0 };
    let reading: Promise<void> | null = null;
    let readAt = 0;
    const read = (): Promise<void> => {
      if (reading && Date.now() - readAt < 500) return reading;
      readAt = Date.now();
      reading = (async () => {
        try {
          const [rows, busy] = await within(
            Promise.all([
              db
                .selectFrom('jobs')
                .select(['kind', 'status', sql<number>`count(*)`.as('n')])
                .where('status', 'in', ['queued', 'processing', 'failed'])
                .groupBy(['kind', 'status'])
                .execute(),
              db
                .selectFrom('jobs')
                .select(sql<number>`count(distinct worker_id)`.as('n'))
                .where('status', '=', 'processing')
                .where('lease_until', '>', leaseStillValidSince())
                .executeTakeFirst(),
            ]),
            COLLECT_TIMEOUT_MS,
          );
          counts.depth = new Map(rows.map((r) => [`${r.kind}:${r.status}`, Number(r.n)]));
          counts.busy = Number(busy?.n ?? 0);
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
    const state = { queued: 'waiting', processing: 'running', failed: 'failed' } as const;
    const depth = new Gauge({
      name: 'tazamun_queue_jobs',
      help: 'Jobs by kind and state (waiting = queued, running = processing, failed), read from the database',
      labelNames: ['kind', 'state'],
      registers,
      collect: async () => {
        await read();
        depth.reset();
        // no figure rather than a stale one while the database is away; tazamun_database_up says why
        if (!counts.up) return;
        for (const kind of ['align', 'video', 'realign'])
          for (const [status, name] of Object.entries(state))
            depth.set({ kind, state: name }, counts.depth.get(`${kind}:${status}`) ?? 0);
      },
    });
    const workers = new Gauge({
      name: 'tazamun_workers_busy',
      help: 'Distinct workers holding a job whose lease is current, read from the database',
      registers,
      collect: async () => {
        await read();
        workers.reset();
        if (counts.up) workers.set(counts.busy);
      },
    });
    const pool = poolOf(db);
    if (pool) {
      const connections = new Gauge({
        name: 'tazamun_db_pool_connections',
        help: "This process's PostgreSQL pool: total, idle, and requests waiting for a connection",
        labelNames: ['state'],
        registers,
        collect: () => {
          connections.set({ state: 'total' }, pool.totalCount);
          connections.set({ state: 'idle' }, pool.idleCount);
          connections.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
    }
  }

  scrape(): Promise<string> {
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
