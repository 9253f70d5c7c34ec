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
export type ProfileUpdate = z.infer<typeof ProfileUpdate>;

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
    .describe(
      'mean over completed alignments of coverage x mean word confidence (each alignment: its mean word confidence, words not found counting 0), in [0, 1]; null when there are none',
    ),
  good_share: z
    .number()
    .nullable()
    .describe('share of completed alignments whose verdict is good, in [0, 1]; null when there are none'),
  mean_confidence: z
    .number()
    .nullable()
    .describe(
      'mean over completed alignments of their mean word confidence (a calibrated probability that a word is within 50 ms), in [0, 1]',
    ),
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

// ---- Routes the spec leaves out but the screens need (profile, settings, waitlist, administration) ----

export const QuotaResponse = z.object({ quota: Quota });
export const QuotaResetRequest = z
  .object({ user_id: z.string().optional().describe('whose usage to reset; the caller when omitted') })
  .nullish();

export const SessionInfo = z.object({
  id: z.string(),
  user_agent: z.string().nullable(),
  device: z.string().describe('short description derived from the user agent, e.g. "Firefox on Linux"'),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
  expires_at: z.string(),
  remember_me: z.boolean(),
  current: z.boolean().describe('true for the session of the access token that made the request'),
});
export type SessionInfo = z.infer<typeof SessionInfo>;
export const SessionList = z.object({ sessions: z.array(SessionInfo) });
export const RevokedCount = z.object({ revoked: z.number().int() });

export const PasswordResetRequest = z.object({ email: z.string() });
export const PasswordResetConfirm = z.object({
  token: z.string(),
  new_password: z.string(),
  new_password_confirm: z.string(),
});

/** Any of the three words is accepted whatever the interface language (spec section 5). */
export const DELETE_CONFIRMATION_WORDS = { fr: 'SUPPRIMER', en: 'DELETE', ar: 'حذف' } as const;
export const DeleteAccountRequest = z.object({ password: z.string(), confirmation: z.string() });

export const PreferencesUpdate = Preferences.partial();
export type PreferencesUpdate = z.infer<typeof PreferencesUpdate>;

export const FEEDBACK_TYPES = ['bug', 'suggestion', 'help', 'other'] as const;
export const FeedbackRequest = z.object({
  type: z.enum(FEEDBACK_TYPES),
  subject: z.string().max(200).optional().nullable(),
  message: z.string(),
});
export const Feedback = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
  user_email: z.string().nullable(),
  type: z.enum(FEEDBACK_TYPES),
  subject: z.string().nullable(),
  message: z.string(),
  created_at: z.string(),
});
export type Feedback = z.infer<typeof Feedback>;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export const AdminUser = User.extend({
  status: z.enum(APPROVAL_STATUSES),
  last_login_at: z.string().nullable(),
});
export type AdminUser = z.infer<typeof AdminUser>;
export const AdminUserList = z.object({ users: z.array(AdminUser) });
export const AdminQuotaUpdate = z.object({ daily_limit: z.number().int().min(0).max(100_000) });

/** Public settings the web shell reads at start-up (GET /api/config/). */
/** The server's own source tarball (AGPL-3.0 §13), the default of PublicConfig.source_url. */
export const SOURCE_PATH = '/api/source/';

export const PublicConfig = z.object({
  version: z.string(),
  org_name: z.string().nullable().describe('null when no parent organisation is configured (ORG_NAME)'),
  org_url: z.string().nullable(),
  org_logo_url: z.string().nullable(),
  support_email: z.string().nullable(),
  auto_approve: z.boolean(),
  default_daily_quota: z.number().int(),
  docs_url: z.string(),
  // AGPL-3.0 §13: where users get the source of the running version; SOURCE_URL, else the server's own
  // tarball (a path on the API, as docs_url). Defaulted so a shell fed an older payload still links it.
  source_url: z.string().default(SOURCE_PATH),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
