// Builds the queue with its handlers for one process (the API server or `npm run worker`): the
// embedded database queue, or BullMQ when a Redis URL is given (REDIS_URL).
import type { FastifyBaseLogger } from 'fastify';
import { EngineHost, gaussianKernelChoice, searchChoice } from '@tazamun/aligner/host';
import type { EngineFaultHook } from '@tazamun/aligner/host';
import type { UserFiles } from '../storage/user-files.ts';
import { AdaptJobHandler } from './adapt-job.ts';
import { AlignJobHandler } from './align-job.ts';
import { BullJobQueue } from './bull-job-queue.ts';
import { DbJobQueue } from './db-job-queue.ts';
import type { JobConfig } from './job-config.ts';
import type { JobHandler, JobKind, JobQueue } from './job-queue.ts';
import { RealignJobHandler } from './realign-job.ts';
import { VideoJobHandler } from './video-job.ts';
import { observeHandlers } from './observed-handler.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Db } from '../db/database.ts';

export interface JobsRuntime {
  queue: JobQueue & { readonly workerId: string };
  /** 'bullmq' when REDIS_URL carries the dispatch, 'database' for the embedded queue */
  kind: 'database' | 'bullmq';
  config: JobConfig;
  /** the engine host the alignment and adaptation jobs run on (tests read its stats) */
  engine: EngineHost;
  close(): Promise<void>;
}

export function createJobsRuntime(
  db: Db,
  files: UserFiles,
  config: JobConfig,
  log: FastifyBaseLogger,
  now: () => Date,
  redisUrl: string | null = null,
  metrics: Metrics | null = null,
  engineFaultHook: EngineFaultHook | null = null,
): JobsRuntime {
  const engine = new EngineHost(engineFaultHook);
  if (config.concurrency > 0) {
    // the operator's one line on the engine's biggest costs: the native Gaussian kernel and search, or
    // the fallbacks
    const { kernel, why } = gaussianKernelChoice();
    const { search, why: searchWhy } = searchChoice();
    if (kernel === 'native' && search === 'native')
      log.info({ gaussian_kernel: kernel, search }, 'engine: the native Gaussian kernel and search');
    else
      log.warn(
        { gaussian_kernel: kernel, search, reason: why ?? searchWhy },
        'engine: the native module is not used for all of the engine (more CPU a job); see ADR 0102 and 0104',
      );
  }
  // wrapped for the operator: job log lines, the engine's error on the row, job metrics
  const handlers: Record<JobKind, JobHandler> = observeHandlers(
    {
      align: new AlignJobHandler(db, files, engine, now),
      video: new VideoJobHandler(db, files, config.fontsDir, now),
      realign: new RealignJobHandler(db, files, engine, now),
      adapt: new AdaptJobHandler(db, files, engine, now, {
        storageBytes: config.modelStorageLimitBytes,
        heapMb: config.adaptHeapMb,
      }),
    },
    db,
    log,
    metrics,
  );
  const queue = redisUrl
    ? new BullJobQueue(db, config, handlers, log, { redisUrl })
    : new DbJobQueue(db, config, handlers, log);
  if (queue instanceof BullJobQueue && metrics) {
    const pings = queue.redisPings();
    metrics.addRedis('queue', pings.queue);
    if (config.concurrency > 0) metrics.addRedis('worker', pings.worker);
  }
  return {
    queue,
    kind: redisUrl ? 'bullmq' : 'database',
    config,
    engine,
    async close() {
      await queue.stop();
      await engine.close();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobsRuntime;
  }
}
