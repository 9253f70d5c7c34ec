// Test helpers for the alignment routes: a real app with its job queue, hand-built multipart bodies,
// audio files made at test time with ffmpeg from the shared eval set (never committed).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import type { BuildOptions } from '../src/app.ts';
import { ManualClock } from '../src/clock.ts';
import type { Config } from '../src/config.ts';
import type { JobConfig } from '../src/jobs/job-config.ts';
import { testConfig, bearer } from './test-app.ts';
import { loadConfig } from '../src/config.ts';
import { ffmpegPath } from '@tazamun/aligner/audio';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { until as waitUntil } from './until.ts';
import { ENGINE_FAULT_MARKER } from '@tazamun/aligner/host';

export const EVAL_DIR = evalDir();
export const TIMIT_WAV = join(EVAL_DIR, 'timit-dev/dr1-fvmh0_sa1.wav');
export const TIMIT_JSON = join(EVAL_DIR, 'timit-dev/dr1-fvmh0_sa1.json');

/** The eval clip and its transcript; throws (never skips) when the shared data is absent. */
export function evalClip(): { wav: string; text: string; duration: number } {
  if (!existsSync(TIMIT_WAV) || !existsSync(TIMIT_JSON))
    throw new Error(`missing test audio ${TIMIT_WAV}: the shared eval set must be present`);
  const j = JSON.parse(readFileSync(TIMIT_JSON, 'utf8')) as { text: string; duration: number };
  return { wav: TIMIT_WAV, text: j.text, duration: j.duration };
}

export function ffmpeg(args: string[]): void {
  execFileSync(ffmpegPath(), ['-nostdin', '-v', 'error', '-y', ...args], { stdio: 'pipe' });
}

export interface JobsTestApp {
  app: FastifyInstance;
  dir: string;
  clock: ManualClock;
  config: Config;
}

export async function createJobsTestApp(
  t: TestContext,
  jobs: Partial<JobConfig> = {},
  overrides: Partial<Config> = {},
  /** more build options: a logger, the engine fault hook */
  build: Pick<BuildOptions, 'logger' | 'engineFaultHook'> = {},
): Promise<JobsTestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-jobs-test-'));
  const config = testConfig(dir, overrides);
  const clock = new ManualClock(new Date().toISOString());
  const jobConfig: JobConfig = {
    ...loadConfig({}).jobs,
    concurrency: 1,
    leaseMs: 5000,
    pollMs: 200,
    demoMediaDir: null,
    seedDemos: false,
    ...jobs,
  };
  const app = await buildApp(config, { clock, logger: false, jobs: jobConfig, ...build });
  await app.ready();
  t.after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { app, dir, clock, config };
}

export type Part =
  { name: string; value: string } | { name: string; filename: string; content: Buffer; contentType?: string };

export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----tazamun${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in p) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(p.content, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export function upload(app: FastifyInstance, access: string, parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return app.inject({
    method: 'POST',
    url: '/api/alignments/',
    payload,
    headers: { ...headers, ...bearer(access) },
  });
}

/** Polls the progress route until the status is one of `until`; gives up after 3 minutes so a broken
 *  queue fails the test instead of hanging the suite (a guard, not a speed requirement). */
export async function waitForStatus(
  app: FastifyInstance,
  access: string,
  id: string,
  until: string[] = ['completed', 'failed', 'cancelled'],
): Promise<Record<string, unknown>> {
  return waitUntil(`alignment ${id} to reach ${until.join('|')}`, async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/alignments/${id}/progress/`,
      headers: bearer(access),
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Record<string, unknown>;
    return until.includes(body.status as string) && body;
  });
}

export function tempDir(t: TestContext): string {
  const d = mkdtempSync(join(tmpdir(), 'tazamun-media-'));
  t.after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

/**
 * About 2 minutes of speech per `times` (five TIMIT sentences joined, eight times over), for jobs that
 * must still be running when the test acts on them. A job of the five sentences once (15 s) took 0.4 s
 * on the native Gaussian kernel (ADR 0102) and could end between a test's two steps.
 */
const LONG_REPEATS = 8;

export function longClip(dir: string, times = 1): { wav: string; text: string } {
  times *= LONG_REPEATS;
  const clips = ['dr1-fvmh0_sa1', 'dr1-fvmh0_sa2', 'dr1-mcpm0_sa1', 'dr1-mcpm0_sa2', 'dr2-faem0_sa1'];
  const texts: string[] = [];
  const lines: string[] = [];
  for (const c of clips) {
    const base = join(EVAL_DIR, 'timit-dev', c);
    if (!existsSync(`${base}.wav`)) throw new Error(`missing test audio ${base}.wav`);
    lines.push(`file '${base}.wav'`);
    texts.push((JSON.parse(readFileSync(`${base}.json`, 'utf8')) as { text: string }).text);
  }
  const list = join(dir, 'list.txt');
  writeFileSync(list, `${Array.from({ length: times }, () => lines.join('\n')).join('\n')}\n`);
  const wav = join(dir, `long-${times}.wav`);
  ffmpeg(['-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', wav]);
  return { wav, text: Array.from({ length: times }, () => texts.join('\n')).join('\n') };
}

/**
 * The engine-fault tests' uploads (jobs/engine-fault.test.ts on the database queue,
 * jobs/bull-job-queue.test.ts on BullMQ): the eval clip sent with the fault marker, so the thread
 * pool's test hook trips the engine on it as often as `hook.faults` says; plain for the jobs after.
 */
export function engineFaultUploads(app: FastifyInstance, access: string) {
  const clip = evalClip();
  const db = app.deps.db;
  const send = async (faulty: boolean): Promise<{ id: string; job: string }> => {
    const res = await upload(app, access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: faulty ? `${ENGINE_FAULT_MARKER}${clip.text}` : clip.text },
      { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    const id = res.json().id as string;
    const job = await db
      .selectFrom('jobs')
      .select('id')
      .where('alignment_id', '=', id)
      .executeTakeFirstOrThrow();
    return { id, job: job.id };
  };
  const used = async () =>
    (await app.inject({ url: '/api/auth/quota/', headers: bearer(access) })).json().quota
      .used_today as number;
  const jobRow = (id: string) =>
    db
      .selectFrom('jobs')
      .select(['status', 'attempts', 'failures', 'run_after', 'worker_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  return { send, used, jobRow };
}
