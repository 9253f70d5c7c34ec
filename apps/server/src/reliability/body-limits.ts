// Per-route body caps under the 1 MB default: a route that reads a refresh token has no use for a
// megabyte, and every byte a public route accepts is parsed and walked before any check of ours runs.
export const BODY_LIMITS = {
  /** a refresh token or nothing (logout, quota/use) */
  token: 512,
  /** an e-mail and a password or two, a reset token */
  credentials: 8 * 1024,
  /** a registration or a profile: names, preferences */
  form: 16 * 1024,
} as const;
