// Presenters: database rows to the API shapes of packages/contracts/src/alignments.ts.
import { errorMessage } from '@tazamun/contracts/errors';
import type { ErrorCode } from '@tazamun/contracts/errors';
import { PROCESSING_STEPS } from '@tazamun/contracts/alignments';
import type { AlignmentSummary, Progress, ProcessingStep } from '@tazamun/contracts/alignments';
import { parseStoredOptions } from '@tazamun/contracts/alignment-options';
import type { UiLanguage } from '@tazamun/contracts/limits';
import type { Verdict } from '@tazamun/contracts/alignment-result';
import type { AlignmentRow } from '../../db/schema.ts';

export function presentError(row: AlignmentRow, lang: UiLanguage) {
  if (!row.error_code || row.status !== 'failed') return null;
  const params = row.error_params ? (JSON.parse(row.error_params) as Record<string, string>) : {};
  const code = row.error_code as ErrorCode;
  return {
    code,
    detail: errorMessage(code, lang, params),
    quota_refunded: row.quota_refunded === 1,
  };
}

const round = (x: number | null, digits = 4): number | null =>
  x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits;

export function presentAlignment(row: AlignmentRow, lang: UiLanguage, shared: boolean): AlignmentSummary {
  const speed =
    row.status === 'completed' && row.duration && row.processing_time
      ? round(row.duration / row.processing_time, 2)
      : null;
  return {
    id: row.id,
    title: row.title ?? row.file_name ?? row.id,
    file_name: row.file_name ?? '',
    file_size: row.file_size ?? 0,
    language: row.language,
    detected_language: row.detected_language,
    verdict: (row.verdict as Verdict | null) ?? null,
    status: row.status as AlignmentSummary['status'],
    step: (row.step as ProcessingStep | null) ?? null,
    progress: row.progress ?? 0,
    error: presentError(row, lang),
    options: parseStoredOptions(row.options),
    duration: round(row.duration),
    confidence: round(row.confidence),
    wer: round(row.wer),
    cer: round(row.cer),
    words: row.words,
    coverage: round(row.coverage),
    alignment_time: round(row.processing_time, 3),
    processing_speed: speed,
    engine: row.engine,
    project_id: row.project_id,
    adapted_model: row.model_name,
    shared,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
  };
}

export function presentProgress(row: AlignmentRow, lang: UiLanguage): Progress {
  const step = (row.step as ProcessingStep | null) ?? null;
  const at = step ? PROCESSING_STEPS.indexOf(step) : -1;
  const done = row.status === 'completed';
  return {
    id: row.id,
    status: row.status as Progress['status'],
    step,
    progress: done ? 100 : (row.progress ?? 0),
    steps: PROCESSING_STEPS.map((s, i) => ({
      step: s,
      state: done || i < at ? 'done' : i === at && row.status === 'processing' ? 'active' : 'pending',
    })),
    error: presentError(row, lang),
    updated_at: row.updated_at,
  };
}
