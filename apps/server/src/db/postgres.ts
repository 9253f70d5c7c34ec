// PostgreSQL behind the same Kysely schema as SQLite. Values come back with the types SQLite gives:
// counts and sums (bigint, numeric) as JavaScript numbers, timestamps are ISO text columns already.
import pg from 'pg';
import { Kysely, PostgresAdapter, PostgresDialect } from 'kysely';
import { DEFAULT_DATABASE_POOL_MAX } from '../config.ts';
import type { Database } from './schema.ts';

const INT8 = 20;
const NUMERIC = 1700;

// count(*) and sum(integer) are bigint in PostgreSQL; the repositories compare them with numbers.
// Our counts stay far below 2^53, so the numeric parse is exact.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

export interface PostgresOptions {
  /**
   * pool size per process; API and worker processes each hold their own pool. The entry points pass
   * DATABASE_POOL_MAX as loadConfig parsed it (DatabaseTarget.poolMax), never the raw variable.
   */
  max?: number;
  /** e.g. `-c search_path=test_x` to isolate one test in a schema */
  options?: string;
}

// Each Kysely instance's pool, for the pool gauges of /metrics (Kysely does not expose it).
const pools = new WeakMap<object, pg.Pool>();

/** The pool under a database opened by openPostgres (or a withPlugin() copy given to notePool). */
export function poolOf(db: object): pg.Pool | undefined {
  return pools.get(db);
}

/** `copy` (e.g. db.withPlugin(...)) shares `db`'s pool. */
export function notePool<T extends object>(db: object, copy: T): T {
  const pool = pools.get(db);
  if (pool) pools.set(copy, pool);
  return copy;
}

export function openPostgres(url: string, opts: PostgresOptions = {}): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    types,
    max: opts.max ?? DEFAULT_DATABASE_POOL_MAX,
    options: opts.options,
    // A dead server or a terminated backend must surface as an error, never as a hung request.
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client whose backend is terminated (failover, pg_terminate_backend) emits 'error' on the
  // pool; unhandled it would crash the process. The pool drops that client and opens a new one.
  pool.on('error', () => undefined);
  // The same for a client whose backend dies between queries while checked out: its next query fails
  // (and the request answers 5xx), the pool discards it on release instead of the process crashing.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/** For the few statements whose spelling differs between the two dialects (migrations, triggers). */
export function isPostgres(db: Kysely<unknown> | Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
