// The body of every error response, as a schema (the catalogue of codes and messages is errors.ts, which
// the engine reads without zod).
import { z } from 'zod';

/**
 * The body of every error response. `detail` is the localised message; field errors are arrays of
 * English messages under the field's name (the web client matches their keywords and localises them),
 * `non_field_errors` holds form-level messages. Extra keys carry numbers the client shows.
 */
export const ErrorBody = z
  .object({
    code: z.string(),
    detail: z.string(),
    non_field_errors: z.array(z.string()).optional(),
    attempts_remaining: z.number().int().optional(),
    max_attempts: z.number().int().optional(),
    lockout_minutes: z.number().int().optional(),
    request_id: z.string().optional(),
  })
  .catchall(z.unknown());
export type ErrorBody = z.infer<typeof ErrorBody>;
