// Row types of every table. Timestamps are ISO-8601 UTC text (sortable, portable to PostgreSQL text),
// booleans are 0/1 integers, JSON documents are text: no SQLite-only type is relied upon.
import type { Insertable, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: string;
  email: string;
  /** lower-cased email; unique, so addresses differing only by case are one account */
  email_key: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  role: 'user' | 'admin';
  status: 'pending' | 'approved' | 'rejected';
  preferred_language: 'ar' | 'fr' | 'en';
  avatar_file: string | null;
  daily_limit: number;
  used_today: number;
  /** UTC day (YYYY-MM-DD) that used_today counts; another day means nothing used yet */
  quota_day: string;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
  password_changed_at: string;
}

export interface PreferencesTable {
  user_id: string;
  data: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  refresh_hash: string;
  remember_me: number;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  last_used_at: string;
  expires_at: string;
}

export interface UsedRefreshTokensTable {
  hash: string;
  session_id: string;
  used_at: string;
}

/** Migration 0003: the row readiness rewrites to prove the database can write. */
export interface WriteProbeTable {
  id: number;
  checked_at: string;
}

export interface LoginAttemptsTable {
  email_key: string;
  failures: number;
  first_failure_at: string;
  locked_until: string | null;
}

export interface FeedbackTable {
  id: string;
  user_id: string | null;
  type: 'bug' | 'suggestion' | 'help' | 'other';
  subject: string | null;
  message: string;
  user_agent: string | null;
  created_at: string;
}

export interface EmailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  kind: string;
  created_at: string;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface AlignmentsTable {
  id: string;
  user_id: string;
  project_id: string | null;
  title: string | null;
  language: string;
  detected_language: string | null;
  status: string;
  duration: number | null;
  confidence: number | null;
  wer: number | null;
  cer: number | null;
  words: number | null;
  coverage: number | null;
  processing_time: number | null;
  file_name: string | null;
  file_size: number | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  // the job columns (migration 0002 and later)
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
  /** the result's quality verdict (migration 0004), null until completed */
  verdict: string | null;
  /** the project's adapted model chosen for the upload (migration 0009); null: the language's own model */
  model_id: string | null;
  /** its engine name (the result's engine.model), kept when the model is deleted */
  model_name: string | null;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  prefix: string;
  created_at: string;
  /** null: the token lasts until revoked */
  expires_at: string | null;
  last_used_at: string | null;
}

export interface LexiconEntriesTable {
  id: string;
  user_id: string;
  /** ISO 639-3 */
  language: string;
  word: string;
  ipa: string;
  created_at: string;
  updated_at: string;
}

export interface JobsTable {
  id: string;
  kind: 'align' | 'video' | 'realign' | 'adapt';
  /** whose work it is (migration 0009): the fair order and the one-at-a-time rule read it */
  user_id: string;
  /** the alignment it works on; null for an adaptation, which works on a project's corpus */
  alignment_id: string | null;
  /** the model an adaptation writes (migration 0009) */
  model_id: string | null;
  video_id: string | null;
  status: 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
  attempts: number;
  max_attempts: number;
  timeout_ms: number;
  lease_until: string | null;
  worker_id: string | null;
  cancel_requested: number;
  /** failed runs so far (migration 0007): an engine failure is retried while this is 0 */
  failures: number;
  /** a retried job is not claimed before this time (its backoff) */
  run_after: string | null;
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
  /** 1: uploads use the project's newest completed adapted model of their language (migration 0009) */
  use_adapted_model: number;
  created_at: string;
  updated_at: string;
}

/** A project's adapted acoustic model and the state of its adaptation (migration 0009, ADR 0070). */
export interface ModelsTable {
  id: string;
  user_id: string;
  project_id: string;
  /** ISO 639-3 */
  language: string;
  status: 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
  /** 0-100 */
  progress: number;
  /** the engine's name for it (manifest id, the results' engine.model), once completed */
  name: string | null;
  /** the engine's manifest (tazamun-model.json) as JSON text, once completed */
  manifest: string | null;
  /** bytes of its files in the store */
  size_bytes: number;
  error_code: string | null;
  error_params: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
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
  /** 1: the whole recording re-aligned (a project re-run, migration 0009), hand corrections kept */
  whole: number;
  revision: number | null;
  error_code: string | null;
  error_params: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** Processes that run jobs, each renewing its row while it lives (migration 0007, ADR 0019). */
export interface WorkersTable {
  id: string;
  hostname: string;
  pid: number;
  /** 'database' or 'bullmq': how the process receives job ids */
  transport: string;
  concurrency: number;
  running: number;
  completed: number;
  /** runs that failed for a reason that was not the input (engine faults, crashes, time-outs) */
  failed: number;
  /** the process was asked to stop and is draining */
  stopping: number;
  /** the process's JOB_LEASE: its row counts as live until heartbeat_at + lease_ms */
  lease_ms: number;
  started_at: string;
  heartbeat_at: string;
}

export interface Database {
  users: UsersTable;
  preferences: PreferencesTable;
  sessions: SessionsTable;
  used_refresh_tokens: UsedRefreshTokensTable;
  login_attempts: LoginAttemptsTable;
  feedback: FeedbackTable;
  email_outbox: EmailOutboxTable;
  password_resets: PasswordResetsTable;
  alignments: AlignmentsTable;
  write_probe: WriteProbeTable;
  api_tokens: ApiTokensTable;
  lexicon_entries: LexiconEntriesTable;
  jobs: JobsTable;
  workers: WorkersTable;
  projects: ProjectsTable;
  shares: SharesTable;
  videos: VideosTable;
  demos: DemosTable;
  alignment_revisions: AlignmentRevisionsTable;
  realignments: RealignmentsTable;
  models: ModelsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type FeedbackRow = Selectable<FeedbackTable>;
export type AlignmentRow = Selectable<AlignmentsTable>;
export type NewAlignment = Insertable<AlignmentsTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type LexiconEntryRow = Selectable<LexiconEntriesTable>;
export type JobRow = Selectable<JobsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type VideoRow = Selectable<VideosTable>;
export type DemoRow = Selectable<DemosTable>;
export type RevisionRow = Selectable<AlignmentRevisionsTable>;
export type RealignmentRow = Selectable<RealignmentsTable>;
export type WorkerRow = Selectable<WorkersTable>;
export type ModelRow = Selectable<ModelsTable>;
