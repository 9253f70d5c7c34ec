// Entry point: parse the environment, open the app, listen (at once, whether or not the database is there
// yet), and close cleanly on SIGTERM/SIGINT.
import pino from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, resolveJwtSecret } from './config.ts';
import { installProcessGuards } from './reliability/process-guards.ts';

// Start-up and fatal lines go to the same JSON stream as the app's own (Fastify logs with pino).
const bootLog = pino({ level: 'info' });
installProcessGuards(bootLog);

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, {}, process.argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`[tazamun] ${err.message}`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const { secret, source } = resolveJwtSecret(config);
  config.jwtSecret = secret;
  // listen at once, also while the database is away: health answers 200, readiness 503 until it is there
  const app = await buildApp(config, { jobs: { ...config.jobs, seedDemos: true }, waitForDatabase: false });
  app.databaseReady.promise.catch((err: unknown) => {
    // not an outage (those are waited for): a migration that cannot run on this database
    app.log.fatal({ err }, 'database migration failed');
    process.exit(1);
  });
  if (source === 'generated')
    app.log.warn({ file: `${config.dataDir}/secret` }, 'JWT_SECRET not set: generated one and saved it');
  else if (source === 'file')
    app.log.info({ file: `${config.dataDir}/secret` }, 'JWT secret read from DATA_DIR');

  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      // running jobs may finish first (JOB_DRAIN_TIMEOUT), then the rest of closing gets 10 s
      const force = setTimeout(() => process.exit(1), 10_000 + app.jobs.config.drainMs);
      force.unref();
      app.close().then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'error during shutdown');
          process.exit(1);
        },
      );
    });
  }
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  bootLog.fatal({ err }, 'failed to start');
  process.exit(1);
});
