// Row types of the tables added by migration 0002. `withJobTables(db)` widens the accounts schema with
// them, so the accounts' schema.ts stays as its owner wrote it.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from './schema.ts';
import type { Db } from './database.ts';

export interface AlignmentJobColumns {
  options: string | null;
  audio_file: string | null;
  audio_format: string | null;
  text_file: string | null;
  result_file: string | null;
  processed_text: string | null;
  engine: string | null;
  step: string | null;
  progress: number | null;
  error_code: string | null;
  error_params: string | null;
  quota_day: string | null;
  quota_refunded: number | null;
  search_text: string | null;
  /** the upload request that created the alignment (migration 0008), for the job's log lines */
  request_id: string | null;
}

export interface JobsTable {
  id: string;
  kind: 'align' | 'video' | 'realign';
  alignment_id: string;
  video_id: string | null;
  status: 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
  attempts: number;
  max_attempts: number;
  timeout_ms: number;
  lease_until: string | null;
  worker_id: string | null;
  cancel_requested: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** the engine's message of the last failed run (migration 0008), for administrators */
  last_error: string | null;
}

export interface ProjectsTable {
  id: string;
  user_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface SharesTable {
  token: string;
  alignment_id: string;
  created_at: string;
}

export interface VideosTable {
  id: string;
  alignment_id: string;
  status: 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
  options: string;
  progress: number;
  file: string | null;
  file_size: number | null;
  render_time: number | null;
  error_code: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface DemosTable {
  id: string;
  alignment_id: string;
  seed_key: string | null;
  title: string;
  category: string;
  description: string;
  licence: string;
  source: string;
  created_at: string;
}

/** A saved revision after the engine's (revision 1 is the alignment's own result file). Migration 0005. */
export interface AlignmentRevisionsTable {
  alignment_id: string;
  revision: number;
  author: 'user' | 'realign';
  /** JSON array of the word indices the revision changed */
  changed_words: string;
  /** the full result JSON of this revision, relative to the user's folder */
  file: string;
  created_at: string;
}

/** One request to re-align a stretch; its job (kind 'realign') finds it by job_id. Migration 0005. */
export interface RealignmentsTable {
  id: string;
  alignment_id: string;
  job_id: string;
  status: 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
  start_time: number;
  end_time: number;
  text: string | null;
  base_revision: number;
  revision: number | null;
  error_code: string | null;
  error_params: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface JobTables {
  alignments: AlignmentJobColumns;
  jobs: JobsTable;
  projects: ProjectsTable;
  shares: SharesTable;
  videos: VideosTable;
  demos: DemosTable;
  alignment_revisions: AlignmentRevisionsTable;
  realignments: RealignmentsTable;
}

export type FullDatabase = Omit<Database, 'alignments'> &
  Omit<JobTables, 'alignments'> & { alignments: Database['alignments'] & AlignmentJobColumns };
export type JDb = Kysely<FullDatabase>;

export type FullAlignmentRow = Selectable<FullDatabase['alignments']>;
export type JobRow = Selectable<JobsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type VideoRow = Selectable<VideosTable>;
export type DemoRow = Selectable<DemosTable>;
export type RevisionRow = Selectable<AlignmentRevisionsTable>;
export type RealignmentRow = Selectable<RealignmentsTable>;

/** The same connection, typed with the tables of migration 0002. */
export function withJobTables(db: Db | JDb): JDb {
  return db as unknown as JDb;
}
