// Accounts contract (spec sections 3, 5, 7): request and response bodies of /api/auth/*.
import { z } from 'zod';
import { UI_LANGUAGES } from './limits.ts';

export const Quota = z.object({
  daily_limit: z.number().int().nonnegative(),
  used_today: z.number().int().nonnegative(),
  remaining: z.number().int().nonnegative(),
  resets_at: z.string().describe('ISO time of the next reset (midnight UTC)'),
});
export type Quota = z.infer<typeof Quota>;

export const Preferences = z.object({
  theme: z.enum(['dark', 'light']),
  language: z.enum(UI_LANGUAGES),
  animations: z.boolean(),
  compact_mode: z.boolean(),
  default_alignment_language: z.string().regex(/^[a-z]{3}$/),
  confidence_threshold: z.enum(['low', 'medium', 'high']),
  fps: z.enum(['standard', 'smooth']),
  text_mode: z.enum(['optimised', 'dual']),
  watermark: z.boolean(),
  email_notifications: z.boolean(),
});
export type Preferences = z.infer<typeof Preferences>;

export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'dark',
  language: 'ar',
  animations: true,
  compact_mode: false,
  default_alignment_language: 'ara',
  confidence_threshold: 'medium',
  fps: 'standard',
  text_mode: 'optimised',
  watermark: false,
  email_notifications: true,
};

export const User = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  name: z.string().describe('display name: first and last name'),
  avatar: z.string().nullable().describe('URL of the resized avatar, or null'),
  is_approved: z.boolean(),
  role: z.enum(['user', 'admin']),
  preferred_language: z.enum(UI_LANGUAGES),
  date_joined: z.string(),
  quota: Quota,
  preferences: Preferences,
});
export type User = z.infer<typeof User>;

export const Tokens = z.object({ access: z.string(), refresh: z.string() });
export type Tokens = z.infer<typeof Tokens>;

export const LoginRequest = z.object({
  email: z.string(),
  password: z.string(),
  remember_me: z.boolean().optional(),
});
export const LoginResponse = z.object({ tokens: Tokens, user: User });

export const RegisterRequest = z.object({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  password: z.string(),
  password_confirm: z.string(),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;
export const RegisterResponse = z.object({
  tokens: Tokens,
  user: User,
  waitlist: z.boolean(),
});

export const RefreshRequest = z.object({ refresh: z.string() });
export const RefreshResponse = z.object({ access: z.string(), refresh: z.string() });
export const LogoutRequest = z.object({ refresh: z.string().optional() });

export const ProfileUpdate = z
  .object({
    first_name: z.string(),
    last_name: z.string(),
    preferred_language: z.enum(UI_LANGUAGES),
    preferences: Preferences.partial(),
  })
  .partial();

export const ChangePasswordRequest = z.object({
  current_password: z.string(),
  new_password: z.string(),
  new_password_confirm: z.string(),
});

export const Stats = z.object({
  total_alignments: z.number().int(),
  completed_alignments: z.number().int(),
  average_accuracy: z
    .number()
    .nullable()
    .describe('mean of (1 - WER) over completed alignments, in [0, 1]; null when there are none'),
  total_duration_seconds: z.number(),
  languages_used: z.array(z.string()),
});
export type Stats = z.infer<typeof Stats>;

/** Field-error keywords the web client matches (spec section 5); server messages must contain them. */
export const FIELD_ERROR_KEYWORDS = [
  'already exists',
  'invalid',
  'required',
  'blank',
  'too short',
  'too common',
  'numeric',
  'similar',
] as const;
