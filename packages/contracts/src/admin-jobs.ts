// Job administration (GET /api/admin/jobs/, retry, cancel): what an operator sees of each job.
import { z } from 'zod';

export const ADMIN_JOB_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type AdminJobStatus = (typeof ADMIN_JOB_STATUSES)[number];

export const AdminJob = z.object({
  id: z.string(),
  kind: z.enum(['align', 'video', 'realign', 'adapt']),
  status: z.enum(ADMIN_JOB_STATUSES),
  /** null for an adaptation, which works on a project's corpus (`model_id`) */
  alignment_id: z.string().nullable(),
  video_id: z.string().nullable(),
  model_id: z.string().nullable(),
  /** the alignment's title and language (an adaptation's: its project's name and language), and its owner's e-mail address */
  title: z.string().nullable(),
  language: z.string().nullable(),
  user_email: z.string().nullable(),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  /** host:pid:id of the process running it (or that ran it last) */
  worker_id: z.string().nullable(),
  /** the catalogue code the user sees, and the engine's own message of the last failed run */
  error_code: z.string().nullable(),
  last_error: z.string().nullable(),
  cancel_requested: z.boolean(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  updated_at: z.string(),
  lease_until: z.string().nullable(),
});
export type AdminJob = z.infer<typeof AdminJob>;

export const AdminJobList = z.object({ jobs: z.array(AdminJob) });
export type AdminJobList = z.infer<typeof AdminJobList>;

export const AdminJobAction = z.object({
  job: AdminJob,
  /** cancel: 'cancelled' at once, or 'requested' (its worker stops it at its next heartbeat) */
  result: z.enum(['retried', 'cancelled', 'requested']),
});
export type AdminJobAction = z.infer<typeof AdminJobAction>;
