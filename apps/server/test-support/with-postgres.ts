// Runs a command against a throwaway PostgreSQL cluster: `node --import tsx with-postgres.ts -- cmd ...`.
// The command sees TAZAMUN_TEST_DB=postgres and TAZAMUN_TEST_PG_URL; test-app.ts then gives every test
// app its own schema in that cluster. Used by `npm test` to run the whole server suite on PostgreSQL.
import { spawn } from 'node:child_process';
import { startPostgres } from './postgres-server.ts';

const sep = process.argv.indexOf('--');
const [cmd, ...args] = sep >= 0 ? process.argv.slice(sep + 1) : [];
if (!cmd) {
  console.error('usage: with-postgres.ts -- <command> [args...]');
  process.exit(2);
}

const server = await startPostgres();
console.log(`[with-postgres] PostgreSQL on 127.0.0.1:${server.port}`);
const child = spawn(cmd, args, {
  stdio: 'inherit',
  env: { ...process.env, TAZAMUN_TEST_DB: 'postgres', TAZAMUN_TEST_PG_URL: server.url },
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
const code = await new Promise<number>((resolve) =>
  child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))),
);
await server.stop();
process.exit(code);
