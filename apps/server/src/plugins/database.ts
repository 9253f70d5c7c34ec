// The app's database: opened from the configuration and closed with the app (or given by the caller,
// who then closes it), and migrated at start. A database still starting (or restarting) is waited for, not a reason to exit:
// while the migration has not finished every API route but the probes answers 503 with Retry-After.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import type { Db } from '../db/database.ts';
import { createError } from '../errors.ts';
import { retryWhileUnavailable } from '../reliability/unavailable.ts';

/** The start-up migration of this process: `settled` once it is done. */
export interface DatabaseReady {
  settled: boolean;
  promise: Promise<void>;
}

/** Routes that answer while the database is not migrated yet (the probes, and the web app's files). */
const ANSWERS_WITHOUT_DATABASE = new Set(['/api/health/', '/api/ready/', '/metrics']);

/**
 * Opens and migrates the database. With `waitForDatabase` it resolves once the migration is done;
 * without (server.ts), at once, so the process listens while its database is away.
 */
export async function registerDatabase(
  app: FastifyInstance,
  config: Config,
  given: Db | undefined,
  waitForDatabase: boolean,
): Promise<Db> {
  const db = given ?? openDatabase(config.database);
  const databaseReady: DatabaseReady = { settled: false, promise: Promise.resolve() };
  databaseReady.promise = retryWhileUnavailable('database', () => migrateToLatest(db), app.log).then(
    (applied) => {
      databaseReady.settled = true;
      // the API serves from here on (test-support/child-process.ts waits for this line)
      app.log.info({ migrations: applied }, 'database ready');
    },
  );
  if (waitForDatabase) await databaseReady.promise;
  app.decorate('databaseReady', databaseReady);
  if (!given) app.addHook('onClose', async () => db.destroy());
  app.addHook('onRequest', async (request) => {
    if (databaseReady.settled) return;
    const route = request.routeOptions.url ?? '';
    if (!route.startsWith('/api/') || ANSWERS_WITHOUT_DATABASE.has(route)) return;
    throw createError('service_unavailable');
  });
  return db;
}

declare module 'fastify' {
  interface FastifyInstance {
    databaseReady: DatabaseReady;
  }
}
