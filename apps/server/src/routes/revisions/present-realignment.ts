// A re-alignment request as the API shows it (its error in the reader's language).
import { errorMessage } from '@tazamun/contracts/errors';
import type { ErrorCode } from '@tazamun/contracts/errors';
import type { UiLanguage } from '@tazamun/contracts/limits';
import type { RealignStatus } from '@tazamun/contracts/revisions';
import type { RealignmentRow } from '../../db/schema.ts';

export function presentRealignment(r: RealignmentRow, lang: UiLanguage): RealignStatus {
  const params = r.error_params ? (JSON.parse(r.error_params) as Record<string, string>) : {};
  return {
    id: r.id,
    status: r.status,
    start: r.start_time,
    end: r.end_time,
    text: r.text,
    base_revision: r.base_revision,
    revision: r.revision,
    error: r.error_code
      ? { code: r.error_code, detail: errorMessage(r.error_code as ErrorCode, lang, params) }
      : null,
    created_at: r.created_at,
    completed_at: r.completed_at,
  };
}
