// The rows of one user that the personal data export adds beside the profile, sessions, preferences,
// feedback and alignments: projects, adapted models (their folders travel under files/models/), share
// links, saved revisions (their result files travel under files/), personal API tokens (never their
// secret: only the SHA-256 is stored) and lexicon entries.
import type { Db } from './database.ts';

export function listUserProjects(db: Db, userId: string) {
  return db
    .selectFrom('projects')
    .select(['id', 'name', 'description', 'use_adapted_model', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The user's adapted models, with the engine's manifest of each completed one. */
export async function listUserModels(db: Db, userId: string) {
  const rows = await db
    .selectFrom('models')
    .select([
      'id',
      'project_id',
      'language',
      'status',
      'name',
      'manifest',
      'size_bytes',
      'error_code',
      'created_at',
      'completed_at',
    ])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, manifest: r.manifest ? (JSON.parse(r.manifest) as unknown) : null }));
}

export function listUserShares(db: Db, userId: string) {
  return db
    .selectFrom('shares')
    .innerJoin('alignments', 'alignments.id', 'shares.alignment_id')
    .select(['shares.alignment_id', 'shares.token', 'shares.created_at'])
    .where('alignments.user_id', '=', userId)
    .orderBy('shares.created_at')
    .execute();
}

export async function listUserRevisions(db: Db, userId: string) {
  const rows = await db
    .selectFrom('alignment_revisions')
    .innerJoin('alignments', 'alignments.id', 'alignment_revisions.alignment_id')
    .select([
      'alignment_revisions.alignment_id',
      'alignment_revisions.revision',
      'alignment_revisions.author',
      'alignment_revisions.changed_words',
      'alignment_revisions.file',
      'alignment_revisions.created_at',
    ])
    .where('alignments.user_id', '=', userId)
    .orderBy('alignment_revisions.alignment_id')
    .orderBy('alignment_revisions.revision')
    .execute();
  return rows.map((r) => ({ ...r, changed_words: JSON.parse(r.changed_words) as number[] }));
}
