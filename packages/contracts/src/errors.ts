// The one error catalogue: stable codes, HTTP status and the message in each interface language.
// Every error body the API sends has the shape ErrorBody below (the fields the spec's client reads).
import { z } from 'zod';
import type { UiLanguage } from './limits.ts';

type Messages = Record<UiLanguage, string>;
interface CatalogueEntry {
  status: number;
  messages: Messages;
}

export const ERRORS = {
  validation_error: {
    status: 400,
    messages: {
      en: 'Some fields are invalid.',
      fr: 'Certains champs sont invalides.',
      ar: 'بعض الحقول غير صالحة.',
    },
  },
  bad_request: {
    status: 400,
    messages: { en: 'The request is malformed.', fr: 'La requête est mal formée.', ar: 'الطلب غير سليم.' },
  },
  invalid_credentials: {
    status: 401,
    messages: {
      en: 'Incorrect email or password.',
      fr: 'Email ou mot de passe incorrect.',
      ar: 'البريد الإلكتروني أو كلمة المرور غير صحيحة.',
    },
  },
  not_authenticated: {
    status: 401,
    messages: {
      en: 'Authentication credentials were not provided.',
      fr: "Informations d'authentification non fournies.",
      ar: 'لم يتم تقديم بيانات المصادقة.',
    },
  },
  token_invalid: {
    status: 401,
    messages: {
      en: 'Token is invalid or expired.',
      fr: 'Le jeton est invalide ou expiré.',
      ar: 'الرمز غير صالح أو منتهي الصلاحية.',
    },
  },
  token_reused: {
    status: 401,
    messages: {
      en: 'This refresh token was already used; the session has been revoked. Please log in again.',
      fr: 'Ce jeton de rafraîchissement a déjà été utilisé ; la session a été révoquée. Veuillez vous reconnecter.',
      ar: 'تم استخدام رمز التحديث هذا من قبل؛ أُلغيت الجلسة. يرجى تسجيل الدخول من جديد.',
    },
  },
  awaiting_approval: {
    status: 403,
    messages: {
      en: 'Your account is awaiting approval.',
      fr: "Votre compte est en attente d'approbation.",
      ar: 'حسابك في انتظار الموافقة.',
    },
  },
  account_rejected: {
    status: 403,
    messages: {
      en: 'Your registration was not approved. Contact support if you think this is a mistake.',
      fr: "Votre inscription n'a pas été approuvée. Contactez le support si vous pensez qu'il s'agit d'une erreur.",
      ar: 'لم تتم الموافقة على تسجيلك. تواصل مع الدعم إن كنت تظن أن هذا خطأ.',
    },
  },
  admin_required: {
    status: 403,
    messages: {
      en: 'This action is reserved to administrators.',
      fr: 'Cette action est réservée aux administrateurs.',
      ar: 'هذا الإجراء مخصص للمشرفين.',
    },
  },
  forbidden: {
    status: 403,
    messages: { en: 'Access denied.', fr: 'Accès refusé.', ar: 'تم رفض الوصول.' },
  },
  not_found: {
    status: 404,
    messages: { en: 'Not found.', fr: 'Introuvable.', ar: 'غير موجود.' },
  },
  method_not_allowed: {
    status: 405,
    messages: {
      en: 'Method not allowed.',
      fr: 'Méthode non autorisée.',
      ar: 'الطريقة غير مسموح بها.',
    },
  },
  reset_token_invalid: {
    status: 400,
    messages: {
      en: 'This password reset link is invalid or has expired.',
      fr: 'Ce lien de réinitialisation est invalide ou a expiré.',
      ar: 'رابط إعادة تعيين كلمة المرور غير صالح أو منتهي الصلاحية.',
    },
  },
  too_many_attempts: {
    status: 429,
    messages: {
      en: 'Too many failed attempts. Try again in {minutes} minutes.',
      fr: 'Trop de tentatives échouées. Réessayez dans {minutes} minutes.',
      ar: 'محاولات فاشلة كثيرة. حاول مجددًا بعد {minutes} دقيقة.',
    },
  },
  account_locked: {
    status: 429,
    messages: {
      en: 'Account locked. Try again in {minutes} minutes.',
      fr: 'Compte verrouillé. Réessayez dans {minutes} minutes.',
      ar: 'الحساب مقفل. حاول مجددًا بعد {minutes} دقيقة.',
    },
  },
  rate_limited: {
    status: 429,
    messages: {
      en: 'Too many requests. Please slow down.',
      fr: 'Trop de requêtes. Veuillez ralentir.',
      ar: 'طلبات كثيرة جدًا. يرجى التمهل.',
    },
  },
  quota_exhausted: {
    status: 429,
    messages: {
      en: 'Daily quota exhausted ({limit} alignments per day). Come back tomorrow or upgrade your account.',
      fr: 'Quota quotidien épuisé ({limit} alignements par jour). Revenez demain ou mettez à niveau votre compte.',
      ar: 'استُنفدت الحصة اليومية ({limit} محاذاة في اليوم). عد غدًا أو قم بترقية حسابك.',
    },
  },
  file_too_large: {
    status: 413,
    messages: {
      en: 'File too large (maximum {size}).',
      fr: 'Fichier trop volumineux (maximum {size}).',
      ar: 'الملف كبير جدًا (الحد الأقصى {size}).',
    },
  },
  file_type_invalid: {
    status: 415,
    messages: {
      en: 'Invalid file type. Accepted formats: {formats}.',
      fr: 'Type de fichier invalide. Formats acceptés : {formats}.',
      ar: 'نوع الملف غير صالح. الصيغ المقبولة: {formats}.',
    },
  },
  timeout: {
    status: 504,
    messages: {
      en: 'Processing took too long. Try with a shorter file.',
      fr: 'Le traitement a pris trop de temps. Essayez avec un fichier plus court.',
      ar: 'استغرقت المعالجة وقتًا طويلًا. جرّب ملفًا أقصر.',
    },
  },
  service_unavailable: {
    status: 503,
    messages: {
      en: 'Service temporarily unavailable; the server may be restarting.',
      fr: 'Service temporairement indisponible ; le serveur redémarre peut-être.',
      ar: 'الخدمة غير متاحة مؤقتًا؛ ربما يُعاد تشغيل الخادم.',
    },
  },
  internal_error: {
    status: 500,
    messages: {
      en: 'An unexpected error occurred.',
      fr: 'Une erreur inattendue est survenue.',
      ar: 'حدث خطأ غير متوقع.',
    },
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERRORS;

/** Fills `{name}` placeholders of a catalogue message. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

export function errorMessage(
  code: ErrorCode,
  lang: UiLanguage,
  params?: Record<string, string | number>,
): string {
  return formatMessage(ERRORS[code].messages[lang], params);
}

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
