// A completed alignment without running the engine: its row and a result file made by the format
// tests' fixture (real word indexes and offsets), for tests of what happens after a job (revisions,
// videos, re-alignments, exports) that do not need real audio.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { makeResult } from '@tazamun/aligner/testing/result-fixtures';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { alignmentFile } from '../src/jobs/alignment-files.ts';

export async function completedAlignment(
  app: FastifyInstance,
  userId: string,
  text = 'she had your dark suit in greasy wash water all year',
  fields: { title?: string; file_name?: string; project_id?: string | null } = {},
): Promise<{ id: string; result: AlignmentResult }> {
  const id = randomUUID();
  const result = makeResult(text);
  const file = alignmentFile(id, 'result.json');
  const { files, db, clock } = app.deps;
  await files.store.put(files.key(userId, file), Buffer.from(JSON.stringify(result)), {
    contentType: 'application/json',
  });
  const now = clock.now().toISOString();
  await db
    .insertInto('alignments')
    .values({
      id,
      user_id: userId,
      project_id: fields.project_id ?? null,
      title: fields.title ?? 'fixture',
      language: 'eng',
      detected_language: null,
      status: 'completed',
      duration: result.audio.duration,
      confidence: result.metrics.mean_confidence,
      wer: null,
      cer: null,
      words: result.words.length,
      coverage: result.metrics.coverage,
      processing_time: 1,
      file_name: fields.file_name ?? 'fixture.wav',
      file_size: 1000,
      created_at: now,
      updated_at: now,
      completed_at: now,
      options: JSON.stringify({ language: 'eng' }),
      audio_file: alignmentFile(id, 'audio.wav'),
      audio_format: 'wav',
      text_file: null,
      result_file: file,
      processed_text: null,
      engine: 'hmm/fixture',
      step: null,
      progress: 100,
      error_code: null,
      error_params: null,
      quota_day: null,
      quota_refunded: null,
      search_text: null,
      request_id: null,
      verdict: 'good',
    })
    .execute();
  return { id, result };
}
