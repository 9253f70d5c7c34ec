// Builds the queue with its handlers for one process (the API server or `npm run worker`).
import type { FastifyBaseLogger } from 'fastify';
import type { JDb } from '../db/jobs-schema.ts';
import type { UserFiles } from '../storage/user-files.ts';
import { AlignJobHandler } from './align-job.ts';
import { DbJobQueue } from './db-job-queue.ts';
import type { JobConfig } from './job-config.ts';
import { AlignThreadPool } from './thread-pool.ts';
import { VideoJobHandler } from './video-job.ts';

export interface JobsRuntime {
  queue: DbJobQueue;
  config: JobConfig;
  close(): Promise<void>;
}

export function createJobsRuntime(
  db: JDb,
  files: UserFiles,
  config: JobConfig,
  log: FastifyBaseLogger,
  now: () => Date,
): JobsRuntime {
  const pool = new AlignThreadPool();
  const queue = new DbJobQueue(
    db,
    config,
    {
      align: new AlignJobHandler(db, files, pool, now),
      video: new VideoJobHandler(db, files, config.fontsDir, now),
    },
    log,
  );
  return {
    queue,
    config,
    async close() {
      await queue.stop();
      await pool.close();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobsRuntime;
  }
}
