// Business constants of spec section 9, shared by web, server and worker.

export const MB = 1024 * 1024;

export const LIMITS = {
  audioMaxBytes: 50 * MB,
  textFileMaxBytes: 5 * MB,
  audioFormats: ['mp3', 'wav', 'm4a', 'ogg'] as const,
  defaultDailyQuota: 10,
  passwordMinLength: 8,
  maxLoginAttempts: 5,
  lockoutMinutes: 15,
  requestTimeoutMs: 120_000,
  avatarMaxBytes: 5 * MB,
} as const;

export const UI_LANGUAGES = ['ar', 'fr', 'en'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/** Right-to-left scripts for interface and content direction (spec section 9: ar, he, fa, and ur). */
export const RTL_LANGUAGES = ['ar', 'he', 'fa', 'ur'] as const;

export const PRECISIONS = ['standard', 'high', 'ultra'] as const;
export type Precision = (typeof PRECISIONS)[number];

export const EXPORT_FORMATS = [
  'json',
  'textgrid',
  'vtt',
  'srt',
  'csv',
  'eaf',
  'readalong',
  'epub',
  'mp4',
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const APP_VERSION = 'v1.0.0';
export const COPYRIGHT_YEAR = 2025;
