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
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type FeedbackRow = Selectable<FeedbackTable>;
export type AlignmentRow = Selectable<AlignmentsTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type LexiconEntryRow = Selectable<LexiconEntriesTable>;
