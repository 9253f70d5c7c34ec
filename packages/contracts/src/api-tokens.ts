// Personal API tokens: long-lived bearer tokens for scripts, shown once at creation and stored hashed.
import { z } from 'zod';

/** Every personal token starts with this, so the server (and a secret scanner) can tell it from a JWT. */
export const API_TOKEN_PREFIX = 'tzp_';
export const API_TOKEN_MAX_DAYS = 366;

export const ApiTokenCreate = z
  .object({
    name: z.string().trim().min(1).max(80),
    expires_in_days: z
      .number()
      .int()
      .min(1)
      .max(API_TOKEN_MAX_DAYS)
      .optional()
      .describe('days until the token stops working; absent: until revoked'),
  })
  .strict();
export type ApiTokenCreate = z.infer<typeof ApiTokenCreate>;

export const ApiToken = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('the first characters of the token, to tell tokens apart'),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const ApiTokenCreated = ApiToken.extend({
  token: z.string().describe('the secret, shown this once: send it as "Authorization: Bearer <token>"'),
});
export type ApiTokenCreated = z.infer<typeof ApiTokenCreated>;

export const ApiTokenList = z.object({ tokens: z.array(ApiToken) });
