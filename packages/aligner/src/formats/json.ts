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

/** Serialises a result after validating it (a result that breaks the schema is never written). */
export function toPlatformJson(result: AlignmentResult, opts: { pretty?: boolean } = {}): string {
  const v = validateAlignmentResult(result);
  if (!v.ok) throw new Error(`refusing to write an invalid alignment result:\n${v.errors.join('\n')}`);
  return `${JSON.stringify(v.result, null, opts.pretty === false ? undefined : 2)}\n`;
}
