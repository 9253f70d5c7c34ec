// A job whose engine failed is retried once, after a backoff: `failures` counts its failed runs (not
// interruptions, which `attempts` counts), `run_after` keeps a retried job from being claimed before
// its backoff is over. Both transports (database poll, BullMQ) read the same columns (ADR 0019).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('jobs').addColumn('run_after', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('run_after').execute();
  await db.schema.alterTable('jobs').dropColumn('failures').execute();
}
