// GET /api/admin/workers/: the processes that run jobs, as their heartbeats in the database show them.
import { z } from 'zod';

export const WorkerStatus = z.object({
  id: z.string(),
  hostname: z.string(),
  pid: z.number().int(),
  transport: z.string(),
  concurrency: z.number().int(),
  running: z.number().int(),
  /** runs completed and runs failed for a reason that was not the input, since the process started */
  completed: z.number().int(),
  failed: z.number().int(),
  /** asked to stop: finishing its running jobs (JOB_DRAIN_TIMEOUT) */
  stopping: z.boolean(),
  /** the heartbeat is younger than the process's lease */
  live: z.boolean(),
  started_at: z.string(),
  heartbeat_at: z.string(),
});
export type WorkerStatus = z.infer<typeof WorkerStatus>;

export const WorkerList = z.object({
  /** workers whose heartbeat is current */
  live: z.number().int(),
  workers: z.array(WorkerStatus),
});
export type WorkerList = z.infer<typeof WorkerList>;
