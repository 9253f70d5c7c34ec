// Projects group a user's alignments; deleting one leaves its alignments unassigned.
import { z } from 'zod';
import { AlignmentSummary } from './alignments.ts';

export const ProjectCreate = z
  .object({
    name: z.string().trim().min(1).max(120),
    description: z.string().max(2000).default(''),
  })
  .strict();

export const ProjectUpdate = z
  .object({
    name: z.string().trim().min(1).max(120),
    description: z.string().max(2000),
    use_adapted_model: z
      .boolean()
      .describe('uploads to the project align with its newest completed adapted model of their language'),
  })
  .partial()
  .strict();
export type ProjectUpdate = z.infer<typeof ProjectUpdate>;

export const Project = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  alignments_count: z.number().int(),
  completed_count: z.number().int(),
  total_duration: z.number().describe('seconds of audio of its completed alignments'),
  mean_confidence: z.number().nullable().describe('mean confidence of its completed alignments'),
  use_adapted_model: z
    .boolean()
    .describe('uploads to the project align with its newest completed adapted model of their language'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Project = z.infer<typeof Project>;

export const ProjectList = z.object({ count: z.number().int(), results: z.array(Project) });

export const MoveAlignments = z.object({ alignment_ids: z.array(z.string()).min(1).max(500) }).strict();
export const MoveResult = z.object({ moved: z.number().int(), project: Project });

/** A recording of a batch that was not queued, and why (a localised sentence). */
export const BatchSkipped = z.object({ name: z.string(), reason: z.string() });
export type BatchSkipped = z.infer<typeof BatchSkipped>;

export const BatchResponse = z.object({
  alignments: z.array(AlignmentSummary).describe('one per queued recording, in the order of their names'),
  skipped: z.array(BatchSkipped),
});
export type BatchResponse = z.infer<typeof BatchResponse>;

/** Limits of a batch upload's zip (docs/decisions/0024-corpus-batch-and-export.md). */
export const BATCH_LIMITS = {
  archiveMaxBytes: 500 * 1024 * 1024,
  maxEntries: 2000,
  /** recordings queued by one request */
  maxRecordings: 200,
  /** uncompressed bytes of all entries together */
  maxUncompressedBytes: 2 * 1024 * 1024 * 1024,
  /** an entry inflating more than this many times its stored size is a zip bomb, not audio or text */
  maxCompressionRatio: 100,
  /**
   * every file part of a multipart batch together (audio and transcripts), as the archive: the parts
   * are written to disk as they arrive, so this bounds what one request can make the server store
   */
  maxRequestBytes: 500 * 1024 * 1024,
  /** the transcripts of one batch together, held in memory while the recordings are checked */
  maxTranscriptBytes: 64 * 1024 * 1024,
} as const;
