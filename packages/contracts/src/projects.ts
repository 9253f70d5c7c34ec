// Projects group a user's alignments; deleting one leaves its alignments unassigned.
import { z } from 'zod';

export const ProjectCreate = z
  .object({
    name: z.string().trim().min(1).max(120),
    description: z.string().max(2000).default(''),
  })
  .strict();

export const ProjectUpdate = z
  .object({ name: z.string().trim().min(1).max(120), description: z.string().max(2000) })
  .partial()
  .strict();

export const Project = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  alignments_count: z.number().int(),
  completed_count: z.number().int(),
  total_duration: z.number().describe('seconds of audio of its completed alignments'),
  mean_confidence: z.number().nullable().describe('mean confidence of its completed alignments'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Project = z.infer<typeof Project>;

export const ProjectList = z.object({ count: z.number().int(), results: z.array(Project) });

export const MoveAlignments = z.object({ alignment_ids: z.array(z.string()).min(1).max(500) }).strict();
export const MoveResult = z.object({ moved: z.number().int(), project: Project });
