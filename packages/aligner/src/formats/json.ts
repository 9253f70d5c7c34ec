// The platform JSON (schema_version 1): the AlignmentResult itself, validated with the contract's zod
// schema on the way out and on the way in.
import { AlignmentResult, RESULT_SCHEMA_VERSION } from '@tazamun/contracts/alignment-result';

export type ValidationResult = { ok: true; result: AlignmentResult } | { ok: false; errors: string[] };

/** Checks any value against the schema; errors are "path: message" lines. */
export function validateAlignmentResult(data: unknown): ValidationResult {
  if (data && typeof data === 'object' && 'schema_version' in data) {
    const v = (data as { schema_version: unknown }).schema_version;
    if (v !== RESULT_SCHEMA_VERSION) {
      return {
        ok: false,
        errors: [`schema_version: ${JSON.stringify(v)} is not supported (expected ${RESULT_SCHEMA_VERSION})`],
      };
    }
  }
  const parsed = AlignmentResult.safeParse(data);
  if (parsed.success) return { ok: true, result: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`),
  };
}

/** Parses and validates a platform JSON document; throws with every problem listed. */
export function parseAlignmentJson(text: string): AlignmentResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`);
  }
  const v = validateAlignmentResult(data);
  if (!v.ok) throw new Error(`invalid alignment result:\n${v.errors.join('\n')}`);
  return v.result;
}

export interface JsonExportOptions {
  /** indent with two spaces (default) or write one line */
  pretty: boolean;
  /** keep the `metrics` object (default); without it the document is an export, not a full result */
  includeMetrics: boolean;
  /** embed the audio file as `audio_data: { mime_type, base64 }` */
  audio: { bytes: Uint8Array; mimeType: string } | null;
}

export const DEFAULT_JSON_OPTIONS: JsonExportOptions = { pretty: true, includeMetrics: true, audio: null };

/**
 * Serialises a result after validating it (a result that breaks the schema is never written). With
 * the default options the output is exactly the AlignmentResult and `parseAlignmentJson` reads it back.
 */
export function toPlatformJson(result: AlignmentResult, options: Partial<JsonExportOptions> = {}): string {
  const o = { ...DEFAULT_JSON_OPTIONS, ...options };
  const v = validateAlignmentResult(result);
  if (!v.ok) throw new Error(`refusing to write an invalid alignment result:\n${v.errors.join('\n')}`);
  const doc: Record<string, unknown> = { ...v.result };
  if (!o.includeMetrics) delete doc.metrics;
  if (o.audio) {
    doc.audio_data = { mime_type: o.audio.mimeType, base64: Buffer.from(o.audio.bytes).toString('base64') };
  }
  return `${JSON.stringify(doc, null, o.pretty ? 2 : undefined)}\n`;
}

/**
 * Reads an exported JSON document, including the export variants (without metrics, with embedded
 * audio): everything else is checked against the schema.
 */
export function parseExportJson(text: string): {
  result: Omit<AlignmentResult, 'metrics'> & { metrics?: AlignmentResult['metrics'] };
  audio: { mimeType: string; bytes: Uint8Array } | null;
} {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`);
  }
  if (!data || typeof data !== 'object') throw new Error('not a JSON object');
  const { audio_data: audioData, ...rest } = data;
  let audio: { mimeType: string; bytes: Uint8Array } | null = null;
  if (audioData !== undefined) {
    const a = audioData as { mime_type?: unknown; base64?: unknown };
    if (
      typeof a?.mime_type !== 'string' ||
      typeof a.base64 !== 'string' ||
      !/^[A-Za-z0-9+/]*={0,2}$/.test(a.base64)
    ) {
      throw new Error('audio_data: expected { mime_type: string, base64: string }');
    }
    audio = { mimeType: a.mime_type, bytes: new Uint8Array(Buffer.from(a.base64, 'base64')) };
  }
  const parsed = AlignmentResult.partial({ metrics: true }).safeParse(rest);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`invalid alignment export:\n${errors.join('\n')}`);
  }
  return { result: parsed.data, audio };
}
