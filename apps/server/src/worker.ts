// `npm run worker`: runs queued jobs against the same DATA_DIR (and database) as the API, without
// serving HTTP. Several workers and API processes can share one database: jobs are claimed atomically
// and leased (see jobs/db-job-queue.ts). With REDIS_URL, BullMQ hands the jobs out instead of the
// database poll (jobs/bull-job-queue.ts), so workers may run on other machines than the API.
// Its /metrics (METRICS_PORT) answers at once, also while the database it waits for is away.
import pino from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { UserFiles, createFileStore } from './storage/user-files.ts';
import { migrateToLatest, openDatabase, selectOne } from './db/database.ts';
import { createJobsRuntime } from './jobs/jobs-runtime.ts';
import type { JobsRuntime } from './jobs/jobs-runtime.ts';
import { RedisSignals } from './queue/redis-signals.ts';
import { installProcessGuards } from './reliability/process-guards.ts';
import { Metrics } from './metrics/metrics.ts';
import { serveMetrics } from './metrics/metrics-server.ts';
import { retryWhileUnavailable } from './reliability/unavailable.ts';
import { DependencyWatch } from './reliability/dependency-watch.ts';

// Start-up and fatal lines in the worker's JSON stream; replaced by the configured logger below.
let log = pino({ level: 'info', name: 'worker' });
installProcessGuards({
  error: (obj, msg) => log.error(obj, msg),
  fatal: (obj, msg) => log.fatal(obj, msg),
});

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, {}, process.argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`[tazamun worker] ${err.message}`);
      process.exit(78);
    }
    throw err;
  }
  log = pino({ level: config.logLevel, name: 'worker' });
  const jobConfig = { ...config.jobs, concurrency: config.jobs.concurrency || 1 };
  const db = openDatabase(config.database);
  const metrics = new Metrics('worker');
  metrics.watchDatabase(db, config.dataDir);
  const watch = new DependencyWatch(log);
  watch.watch('database', () => selectOne(db));
  const metricsServer = config.metricsPort
    ? serveMetrics(metrics, { port: config.metricsPort, host: config.host, token: config.metricsToken }, log)
    : null;

  let runtime: JobsRuntime | null = null;
  let signals: RedisSignals | null = null;
  // The queue's timers are unref'd (they must not keep an API process alive); this one keeps the
  // worker process running until it is told to stop.
  const keepAlive = setInterval(() => undefined, 60_000);
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      log.info({ signal }, 'worker shutting down');
      clearInterval(keepAlive);
      watch.stop();
      metricsServer?.close();
      // running jobs may finish for JOB_DRAIN_TIMEOUT; the rest are handed back (queued again,
      // attempt returned) for another worker
      void (runtime?.close() ?? Promise.resolve())
        .then(() => signals?.close())
        .then(() => db.destroy())
        .then(
          () => process.exit(0),
          (err: unknown) => {
            log.error({ err }, 'error during shutdown');
            process.exit(1);
          },
        );
    });
  }

  watch.start();
  await retryWhileUnavailable('database', () => migrateToLatest(db), log);
  if (closing) return;
  const { redisUrl } = config;
  runtime = createJobsRuntime(
    db,
    new UserFiles(config.dataDir, createFileStore(config.dataDir, config.s3)),
    jobConfig,
    log,
    () => new Date(),
    redisUrl,
    metrics,
  );
  signals = redisUrl ? new RedisSignals(redisUrl, runtime.queue, log) : null;
  if (signals) {
    const s = signals;
    metrics.addRedis('signals', () => s.ping());
    watch.watch('redis', () => s.ping());
  }
  await signals?.start();
  await runtime.queue.start();
  log.info(
    { concurrency: jobConfig.concurrency, worker: runtime.queue.workerId, queue: runtime.kind },
    'worker started',
  );
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'worker failed to start');
  process.exit(1);
});
