// A job whose engine failed is retried once, after a backoff: `failures` counts its failed runs (not
// interruptions, which `attempts` counts), `run_after` keeps a retried job from being claimed before
// its backoff is over. Both transports (database poll, BullMQ) read the same columns. `workers` holds
// one row per process running jobs, renewed by its heartbeat, so the API can count live workers and
// see one whose runs keep failing (ADR 0019, issue 19).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('jobs').addColumn('run_after', 'text').execute();
  await db.schema
    .createTable('workers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('hostname', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('transport', 'text', (c) => c.notNull())
    .addColumn('concurrency', 'integer', (c) => c.notNull())
    .addColumn('running', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stopping', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_ms', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('heartbeat_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('workers').execute();
  await db.schema.alterTable('jobs').dropColumn('run_after').execute();
  await db.schema.alterTable('jobs').dropColumn('failures').execute();
}
