// The app's job queue (jobs/jobs-runtime.ts), with what starts and stops around it: the temp files a
// crashed process left, the queue itself once the database is migrated, the demo gallery's seeding a
// little after start-up, and with REDIS_URL the signals that carry wakes and updates between processes.
import type { FastifyInstance } from 'fastify';
import type { EngineFaultHook } from '@tazamun/aligner/host';
import { seedDemos } from '../demos/seed-demos.ts';
import { underSeedLock } from '../db/seed-lock.ts';
import type { JobConfig } from '../jobs/job-config.ts';
import { createJobsRuntime } from '../jobs/jobs-runtime.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { RedisSignals } from '../queue/redis-signals.ts';
import type { DependencyWatch } from '../reliability/dependency-watch.ts';

/** How long after start-up the demos are seeded, so the first requests do not compete with it. */
const SEED_DELAY_MS = 3000;

export interface JobsPluginOptions {
  jobConfig: JobConfig;
  redisUrl: string | null;
  metrics: Metrics;
  watch: DependencyWatch;
  /** false: the queue starts once the database is migrated, whenever that is */
  waitForDatabase: boolean;
  engineFaultHook: EngineFaultHook | null;
}

export function registerJobs(app: FastifyInstance, o: JobsPluginOptions): void {
  const { deps, databaseReady } = app;
  const { jobConfig, metrics } = o;
  const jobs = createJobsRuntime(
    deps.db,
    deps.files,
    jobConfig,
    app.log,
    () => deps.clock.now(),
    o.redisUrl,
    metrics,
    o.engineFaultHook,
  );
  app.decorate('jobs', jobs);
  let seedTimer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    // temp copies a crashed process left in DATA_DIR/tmp (uploads being checked, tool inputs)
    void deps.files
      .sweepTemp()
      .then((n) => n && app.log.info({ removed: n }, 'old temp files removed'))
      .catch((err: unknown) => app.log.warn({ err }, 'temp sweep failed'));
    // the queue reads and claims rows: it starts once the database is migrated
    if (o.waitForDatabase) await jobs.queue.start();
    else
      void databaseReady.promise
        .then(() => jobs.queue.start())
        .catch((err: unknown) => app.log.error({ err }, 'the job queue did not start'));
    const dir = jobConfig.demoMediaDir;
    if (jobConfig.seedDemos && dir) {
      seedTimer = setTimeout(() => {
        // one process seeds; the others starting with it skip (db/seed-lock.ts)
        void databaseReady.promise
          .then(() => underSeedLock(deps.db, () => seedDemos(app, dir)))
          .then((r) => r === null && app.log.info({ dir }, 'demo seeding left to another process'))
          .catch((err: unknown) => app.log.error({ err, dir }, 'demo seeding failed'));
      }, SEED_DELAY_MS);
      seedTimer.unref();
    }
  });
  app.addHook('preClose', async () => {
    if (seedTimer) clearTimeout(seedTimer);
    await jobs.close();
  });
  // REDIS_URL: wake-ups and progress reach the other processes at once
  const signals = o.redisUrl ? new RedisSignals(o.redisUrl, jobs.queue, app.log) : null;
  app.decorate('redisSignals', signals);
  if (signals) {
    metrics.addRedis('signals', () => signals.ping());
    o.watch.watch('redis', () => signals.ping());
    app.addHook('onReady', async () => signals.start());
    app.addHook('onClose', async () => signals.close());
  }
}
