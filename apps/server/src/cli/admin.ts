// `npm run admin -- <command>`: account administration from a shell, on the same database and with
// the same commands as the admin API (accounts and jobs). Exit code 0 on success, 1 on a refused action, 2 on bad usage,
// 78 on an invalid configuration (every bad variable listed, as the server and the worker do).
import { parseArgs } from 'node:util';
import pino from 'pino';
import { approveUser, createAccount, promoteUser, rejectUser, setDailyLimit } from '../commands/accounts.ts';
import { presentQuota } from '../accounts/present-user.ts';
import { systemClock } from '../clock.ts';
import { ConfigError, loadConfig, resolveJwtSecret } from '../config.ts';
import type { AppDeps } from '../context.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { findUserByEmail, listUsers } from '../db/users.ts';
import { OutboxEmailSender } from '../email/email-sender.ts';
import { AppError } from '../errors.ts';
import { TokenService } from '../accounts/tokens.ts';
import { UserFiles, createFileStore } from '../storage/user-files.ts';
import { ADMIN_JOB_STATUSES } from '@tazamun/contracts/admin-jobs';
import type { AdminJobStatus } from '@tazamun/contracts/admin-jobs';
import { retryJob } from '../commands/retry-job.ts';
import { findJob, listJobs } from '../jobs/job-admin.ts';
import { listWorkers } from '../jobs/worker-registry.ts';
import { isUnavailable } from '../reliability/unavailable.ts';

const USAGE = `usage: npm run admin -- <command>
  create --email E --password P [--first-name F] [--last-name L] [--role admin|user]
                              create an approved account (admin unless --role user); a user
                              account needs --first-name and --last-name (its mails greet it
                              by name); an administrator's names default to "Admin Tazamun"
  approve EMAIL               approve a waiting account (mails the user)
  reject EMAIL                reject an account and end its sessions
  list [--pending]            list accounts (only the waiting list with --pending)
  set-quota EMAIL N           set the daily alignment limit
  promote EMAIL               make an account an approved administrator
  jobs [--status S]           list jobs (waiting, running and failed unless S is given:
                              queued, processing, completed, failed, cancelled)
  retry-job ID                run a failed job again (attempts start over, no quota charged)
  cancel-job ID               cancel a queued job, or ask the worker running it to stop
  workers                     the processes running jobs: live or dead (heartbeat older than three
                              beats), jobs running, runs completed and failed, last heartbeat`;

class UsageError extends Error {}

async function run(argv: string[], deps: AppDeps): Promise<string> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      role: { type: 'string' },
      pending: { type: 'boolean' },
      status: { type: 'string' },
    },
  });
  const userByEmail = async (email: string | undefined) => {
    if (!email) throw new UsageError('an EMAIL is required');
    const user = await findUserByEmail(deps.db, email);
    if (!user) throw new AppError('not_found', {}, { email: [`no account with email ${email}`] });
    return user;
  };

  switch (command) {
    case 'create': {
      if (!values.email || !values.password) throw new UsageError('create needs --email and --password');
      const role = values.role ?? 'admin';
      if (role !== 'admin' && role !== 'user') throw new UsageError('--role is admin or user');
      // an administrator made at install time may go unnamed; a person's account may not
      if (role === 'user' && (!values['first-name'] || !values['last-name']))
        throw new UsageError('create --role user needs --first-name and --last-name');
      const user = await createAccount(deps, {
        email: values.email,
        password: values.password,
        password_confirm: values.password,
        first_name: values['first-name'] ?? 'Admin',
        last_name: values['last-name'] ?? 'Tazamun',
        role,
        approved: true,
      });
      return `created ${user.role} ${user.email} (${user.id})`;
    }
    case 'approve': {
      const user = await approveUser(deps, await userByEmail(positionals[0]));
      return `approved ${user.email}`;
    }
    case 'reject': {
      const user = await rejectUser(deps, await userByEmail(positionals[0]));
      return `rejected ${user.email}`;
    }
    case 'list': {
      const rows = await listUsers(deps.db, values.pending ? 'pending' : undefined);
      const now = deps.clock.now();
      const lines = rows.map((u) => {
        const q = presentQuota(u, now);
        return [
          u.email,
          u.status,
          u.role,
          `${q.used_today}/${q.daily_limit}`,
          u.created_at,
          `${u.first_name} ${u.last_name}`,
        ].join('\t');
      });
      return ['email\tstatus\trole\tquota\tjoined\tname', ...lines].join('\n');
    }
    case 'set-quota': {
      const n = Number(positionals[1]);
      if (!Number.isInteger(n) || n < 0)
        throw new UsageError('set-quota needs EMAIL and a whole number N >= 0');
      const user = await setDailyLimit(deps, await userByEmail(positionals[0]), n);
      return `daily limit of ${user.email} is now ${n}`;
    }
    case 'promote': {
      const user = await promoteUser(deps, await userByEmail(positionals[0]));
      return `${user.email} is now an administrator`;
    }
    case 'jobs': {
      const status = values.status as AdminJobStatus | undefined;
      if (status !== undefined && !ADMIN_JOB_STATUSES.includes(status))
        throw new UsageError(`--status is one of ${ADMIN_JOB_STATUSES.join(', ')}`);
      const jobs = await listJobs(deps.db, status);
      const lines = jobs.map((j) =>
        [
          j.id,
          j.kind,
          j.status,
          `${j.attempts}/${j.max_attempts}`,
          j.worker_id ?? '-',
          j.created_at,
          j.started_at ?? '-',
          j.finished_at ?? '-',
          j.alignment_id ?? (j.model_id ? `model ${j.model_id}` : '-'),
          j.user_email ?? '-',
          j.error_code ?? '-',
          (j.last_error ?? '-').replace(/\s+/g, ' '),
        ].join('\t'),
      );
      const header =
        'id\tkind\tstatus\tattempts\tworker\tcreated\tstarted\tfinished\talignment\tuser\terror\tlast_error';
      return [header, ...lines].join('\n');
    }
    case 'retry-job': {
      if (!positionals[0]) throw new UsageError('retry-job needs a job ID');
      const job = await retryJob(deps.db, deps.config.jobs, positionals[0]);
      // running workers find the queued row by their poll (database queue) or reconciler (BullMQ)
      return `job ${job.id} queued again (${job.alignment_id ? `alignment ${job.alignment_id}` : `model ${job.model_id}`})`;
    }
    case 'cancel-job': {
      if (!positionals[0]) throw new UsageError('cancel-job needs a job ID');
      const db = deps.db;
      const before = await findJob(db, positionals[0]);
      // the queue's own cancel: the quota unit of a job that never ran comes back, as from the API
      // (loaded here only: the other commands start without the job runtime and its engine)
      const { createJobsRuntime } = await import('../jobs/jobs-runtime.ts');
      const runtime = createJobsRuntime(
        db,
        deps.files,
        { ...deps.config.jobs, concurrency: 0 },
        pino({ level: 'silent' }),
        () => new Date(),
        deps.config.redisUrl,
      );
      try {
        const r = await runtime.queue.cancel(before.id);
        if (r === 'not_cancellable') throw new AppError('job_not_cancellable', { status: before.status });
        return r === 'cancelled'
          ? `job ${before.id} cancelled`
          : `job ${before.id}: cancel requested; its worker stops it at its next heartbeat`;
      } finally {
        await runtime.close();
      }
    }
    case 'workers': {
      const now = deps.clock.now();
      const { live, workers } = await listWorkers(deps.db, now);
      const age = (at: string) => `${Math.max(0, Math.round((now.getTime() - Date.parse(at)) / 1000))}s ago`;
      const lines = workers.map((w) =>
        [
          w.id,
          w.live ? (w.stopping ? 'stopping' : 'live') : 'dead',
          w.transport,
          `${w.running}/${w.concurrency}`,
          w.completed,
          w.failed,
          w.started_at,
          age(w.heartbeat_at),
        ].join('\t'),
      );
      const header = 'id\tstate\ttransport\trunning\tcompleted\tfailed\tstarted\theartbeat';
      return [`${live} live of ${workers.length}`, header, ...lines].join('\n');
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

async function main(): Promise<number> {
  let config;
  try {
    // pino writes to stdout, where the command's answer goes (scripts read `list`): the server's info
    // lines would mix in, so unset LOG_LEVEL means warn here. A set one is checked like everywhere.
    config = loadConfig(process.env, { LOG_LEVEL: 'warn' });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`[tazamun admin] ${err.message}`);
      return 78; // EX_CONFIG
    }
    throw err;
  }
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    const log = pino({ level: config.logLevel });
    const deps: AppDeps = {
      config,
      db,
      clock: systemClock,
      tokens: new TokenService(resolveJwtSecret(config).secret, config.accessTokenTtlMs, systemClock),
      email: new OutboxEmailSender(db, systemClock, log),
      files: new UserFiles(config.dataDir, createFileStore(config.dataDir, config.s3)),
    };
    console.log(await run(process.argv.slice(2), deps));
    return 0;
  } catch (err) {
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err)) {
      console.error(`error: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof AppError) {
      const fields = Object.entries(err.extra)
        .map(([k, v]) => `  ${k}: ${Array.isArray(v) ? v.join(' ') : String(v)}`)
        .join('\n');
      console.error(`error: ${err.code}${fields ? `\n${fields}` : ''}`);
      return 1;
    }
    if (isUnavailable(err)) {
      console.error(`error: the database is unavailable (${(err as Error).message}); nothing was changed`);
      return 1;
    }
    throw err;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
