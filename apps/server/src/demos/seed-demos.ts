// Seeds the demo gallery from a media folder: each manifest entry becomes an alignment owned by the
// gallery's system account, aligned by the engine as an ordinary background job. Idempotent by the
// entry's key; media are copied into DATA_DIR (never into the repository).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { probeAudio } from '@tazamun/aligner/audio';
import { resolveLanguage } from '@tazamun/aligner/backends';
import { DemoManifest, storeLocalised } from '@tazamun/contracts/demos';
import type { DemoManifestEntry } from '@tazamun/contracts/demos';
import { alignmentFile, removeAlignmentFiles } from '../jobs/alignment-files.ts';
import { jobTimeoutMs } from '../jobs/job-config.ts';
import { sniffAudio } from '../media/audio-sniff.ts';
import { cleanTranscriptText } from '../media/text-decode.ts';
import { insertAlignment } from '../db/alignments.ts';
import type { Db } from '../db/database.ts';
import { insertDemo, isSeeded } from '../db/demos.ts';
import { insertUserIfAbsent } from '../db/users.ts';

export const DEMO_USER_ID = 'demo-gallery';
const DEFAULT_MANIFEST = join(dirname(fileURLToPath(import.meta.url)), 'default-demos.json');

/** The account that owns seeded demos: rejected status and no password, so nobody can sign in as it. */
export async function ensureDemoUser(db: Db, nowIso: string): Promise<void> {
  await insertUserIfAbsent(db, {
    id: DEMO_USER_ID,
    email: 'demo-gallery@tazamun.invalid',
    email_key: 'demo-gallery@tazamun.invalid',
    first_name: 'Tazamun',
    last_name: 'Demos',
    password_hash: '!',
    role: 'user',
    status: 'rejected',
    preferred_language: 'en',
    avatar_file: null,
    daily_limit: 0,
    used_today: 0,
    quota_day: nowIso.slice(0, 10),
    created_at: nowIso,
    updated_at: nowIso,
    last_login_at: null,
    password_changed_at: nowIso,
  });
}

/** demos.json in the folder; else the built-in manifest (written for the shared demo-media folder);
 *  plus any sub-folder that describes itself with a demo.json. */
export async function readDemoManifest(dir: string): Promise<{ base: string; entry: DemoManifestEntry }[]> {
  const own = join(dir, 'demos.json');
  const file = existsSync(own) ? own : DEFAULT_MANIFEST;
  const manifest = DemoManifest.parse(JSON.parse(await readFile(file, 'utf8')));
  const out = manifest.demos.map((entry) => ({ base: dir, entry }));
  const known = new Set(out.map((o) => o.entry.key));
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const self = join(dir, d.name, 'demo.json');
    if (!d.isDirectory() || !existsSync(self)) continue;
    const entry = DemoManifest.shape.demos.element.parse({
      key: d.name,
      ...(JSON.parse(await readFile(self, 'utf8')) as object),
    });
    if (!known.has(entry.key)) out.push({ base: join(dir, d.name), entry });
  }
  return out;
}

async function transcriptOf(base: string, e: DemoManifestEntry): Promise<string> {
  if (e.text) return e.text;
  if (e.text_file) return cleanTranscriptText(await readFile(resolve(base, e.text_file), 'utf8'));
  if (e.text_json) {
    const doc = JSON.parse(await readFile(resolve(base, e.text_json.file), 'utf8')) as Record<
      string,
      unknown
    >;
    const v = doc[e.text_json.key];
    if (typeof v === 'string') return v;
  }
  throw new Error(`demo ${e.key}: no transcript (text, text_file or text_json)`);
}

export interface SeedReport {
  created: string[];
  skipped: string[];
  missing: string[];
}

export async function seedDemos(app: FastifyInstance, dir: string): Promise<SeedReport> {
  const { deps } = app;
  const db = deps.db;
  const report: SeedReport = { created: [], skipped: [], missing: [] };
  const nowIso = deps.clock.now().toISOString();
  await ensureDemoUser(db, nowIso);
  for (const { base, entry } of await readDemoManifest(dir)) {
    if (await isSeeded(db, entry.key)) {
      report.skipped.push(entry.key);
      continue;
    }
    const audioSrc = resolve(base, entry.audio);
    if (!existsSync(audioSrc)) {
      app.log.warn({ demo: entry.key, audio: audioSrc }, 'demo audio not found: skipped');
      report.missing.push(entry.key);
      continue;
    }
    const head = (await readFile(audioSrc)).subarray(0, 16);
    const format = sniffAudio(head) ?? extname(audioSrc).slice(1);
    const text = await transcriptOf(base, entry);
    const duration = (await probeAudio(audioSrc)).duration;
    const id = randomUUID();
    const audioFile = alignmentFile(id, `audio.${format}`);
    const textFile = alignmentFile(id, 'text.txt');
    try {
      await deps.files.store.put(deps.files.key(DEMO_USER_ID, audioFile), createReadStream(audioSrc));
      await deps.files.store.put(deps.files.key(DEMO_USER_ID, textFile), Buffer.from(text));
      await db.transaction().execute(async (trx) => {
        await insertAlignment(trx, {
          id,
          user_id: DEMO_USER_ID,
          project_id: null,
          title: entry.title,
          language: resolveLanguage(entry.language).iso3,
          detected_language: null,
          status: 'queued',
          duration,
          confidence: null,
          wer: null,
          cer: null,
          words: null,
          coverage: null,
          processing_time: null,
          file_name: audioSrc.split('/').pop() ?? 'audio',
          file_size: (await readFile(audioSrc)).length,
          options: JSON.stringify({}),
          audio_file: audioFile,
          audio_format: format,
          text_file: textFile,
          result_file: null,
          processed_text: null,
          engine: null,
          step: null,
          progress: 0,
          error_code: null,
          error_params: null,
          quota_day: null,
          quota_refunded: 0,
          search_text: text.slice(0, 20_000).toLowerCase(),
          created_at: nowIso,
          updated_at: nowIso,
          completed_at: null,
        });
        await insertDemo(trx, {
          id: randomUUID(),
          alignment_id: id,
          seed_key: entry.key,
          title: entry.title,
          category: entry.category,
          description: storeLocalised(entry.description),
          licence: storeLocalised(entry.licence),
          source: storeLocalised(entry.source),
          created_at: nowIso,
        });
        await app.jobs.queue.enqueue(trx, {
          kind: 'align',
          userId: DEMO_USER_ID,
          alignmentId: id,
          timeoutMs: jobTimeoutMs(app.jobs.config, duration),
        });
      });
      report.created.push(entry.key);
    } catch (err) {
      await removeAlignmentFiles(deps.files, DEMO_USER_ID, id);
      throw err;
    }
  }
  app.jobs.queue.wake();
  if (report.created.length) app.log.info(report, 'demo gallery seeded');
  return report;
}
