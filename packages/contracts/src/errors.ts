// The one error catalogue: stable codes, HTTP status and the message in each interface language.
// Every error body the API sends has the shape ErrorBody (error-body.ts: the fields the spec's client reads).
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
  request_timeout: {
    status: 408,
    messages: {
      en: 'The request took too long to arrive; the connection was closed.',
      fr: 'La requête a mis trop de temps à arriver ; la connexion a été fermée.',
      ar: 'استغرق وصول الطلب وقتًا طويلًا؛ أُغلق الاتصال.',
    },
  },
  headers_too_large: {
    status: 431,
    messages: {
      en: 'The request headers are too large.',
      fr: 'Les en-têtes de la requête sont trop volumineux.',
      ar: 'ترويسات الطلب كبيرة جدًا.',
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
      en: 'Daily quota exhausted ({limit} alignments per day). It renews at midnight UTC; to align more each day, ask this server’s administrators (the support address) for a higher daily limit.',
      fr: 'Quota quotidien épuisé ({limit} alignements par jour). Il se renouvelle à minuit UTC ; pour aligner davantage chaque jour, demandez aux administrateurs de ce serveur (l’adresse du support) une limite quotidienne plus élevée.',
      ar: 'استُنفدت الحصة اليومية ({limit} محاذاة في اليوم). تتجدد عند منتصف الليل بالتوقيت العالمي؛ لمحاذاة المزيد كل يوم، اطلب من مشرفي هذا الخادم (عنوان الدعم) رفع حدّك اليومي.',
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
  server_busy: {
    status: 503,
    messages: {
      en: 'The server is busy checking other uploads. Please try again in {seconds} seconds.',
      fr: "Le serveur est occupé à vérifier d'autres envois. Veuillez réessayer dans {seconds} secondes.",
      ar: 'الخادم مشغول بفحص ملفات أخرى مرفوعة. يرجى المحاولة مجددًا بعد {seconds} ثانية.',
    },
  },
  // ---- Alignment uploads, jobs, exports, sharing (spec section 8's upload and alignment entries) ----
  audio_required: {
    status: 400,
    messages: {
      en: 'An audio file is required.',
      fr: 'Un fichier audio est requis.',
      ar: 'ملف صوتي مطلوب.',
    },
  },
  audio_too_large: {
    status: 413,
    messages: {
      en: 'The audio file is too large (maximum {size}).',
      fr: 'Le fichier audio est trop volumineux (maximum {size}).',
      ar: 'الملف الصوتي كبير جدًا (الحد الأقصى {size}).',
    },
  },
  audio_format_invalid: {
    status: 415,
    messages: {
      en: 'This file is not a readable audio file. Accepted formats: {formats}.',
      fr: "Ce fichier n'est pas un fichier audio lisible. Formats acceptés : {formats}.",
      ar: 'هذا الملف ليس ملفًا صوتيًا مقروءًا. الصيغ المقبولة: {formats}.',
    },
  },
  audio_undecodable: {
    status: 415,
    messages: {
      en: 'The audio file cannot be decoded: it looks like {format} audio, but its content is damaged or incomplete.',
      fr: 'Le fichier audio ne peut pas être décodé : il ressemble à de l’audio {format}, mais son contenu est endommagé ou incomplet.',
      ar: 'تعذّر فك ترميز الملف الصوتي: يبدو ملف {format} لكن محتواه تالف أو ناقص.',
    },
  },
  audio_unusable: {
    status: 422,
    messages: {
      en: 'The audio cannot be aligned: {reason}.',
      fr: "L'audio ne peut pas être aligné : {reason}.",
      ar: 'لا يمكن محاذاة الصوت: {reason}.',
    },
  },
  audio_samples_invalid: {
    status: 422,
    messages: {
      en: 'The audio holds samples that are not numbers (NaN or infinity): it can be neither played nor aligned. Export it again from your audio editor.',
      fr: 'L’audio contient des échantillons qui ne sont pas des nombres (NaN ou infini) : il ne peut être ni lu ni aligné. Exportez-le de nouveau depuis votre éditeur audio.',
      ar: 'يحتوي الصوت على عيّنات ليست أرقامًا (NaN أو لانهاية): لا يمكن تشغيله ولا محاذاته. صدّره من جديد من محرّر الصوت لديك.',
    },
  },
  audio_silent: {
    status: 422,
    messages: {
      en: 'The audio is silent: no speech was found to align.',
      fr: "L'audio est silencieux : aucune parole à aligner.",
      ar: 'الصوت صامت: لم يُعثر على كلام للمحاذاة.',
    },
  },
  audio_too_long: {
    status: 422,
    messages: {
      en: 'The audio is too long ({duration}); the maximum is {max}.',
      fr: "L'audio est trop long ({duration}) ; le maximum est de {max}.",
      ar: 'الصوت طويل جدًا ({duration})؛ الحد الأقصى {max}.',
    },
  },
  audio_sample_rate_too_low: {
    status: 422,
    messages: {
      en: "The audio's sample rate is too low ({rate} Hz); speech needs at least {min} Hz.",
      fr: "La fréquence d'échantillonnage de l'audio est trop basse ({rate} Hz) ; la parole demande au moins {min} Hz.",
      ar: 'معدل العيّنات في الصوت منخفض جدًا ({rate} هرتز)؛ يحتاج الكلام إلى {min} هرتز على الأقل.',
    },
  },
  transcript_too_long: {
    status: 422,
    messages: {
      en: 'The transcript is far longer than the audio can hold: {seconds} s of audio fit at most {max_words} words and {max_characters} characters.',
      fr: "La transcription est bien plus longue que ce que l'audio peut contenir : {seconds} s d'audio contiennent au plus {max_words} mots et {max_characters} caractères.",
      ar: 'النص أطول بكثير مما يتسع له الصوت: {seconds} ثانية من الصوت تتسع لـ{max_words} كلمة و{max_characters} حرفًا على الأكثر.',
    },
  },
  text_required: {
    status: 400,
    messages: {
      en: 'The transcript is required (a text field or a text file).',
      fr: 'La transcription est requise (champ texte ou fichier texte).',
      ar: 'النص مطلوب (حقل نصي أو ملف نصي).',
    },
  },
  text_too_large: {
    status: 413,
    messages: {
      en: 'The text is too large (maximum {size}).',
      fr: 'Le texte est trop volumineux (maximum {size}).',
      ar: 'النص كبير جدًا (الحد الأقصى {size}).',
    },
  },
  text_encoding_invalid: {
    status: 400,
    messages: {
      en: 'The text file is not valid UTF-8. Save it as UTF-8 and try again.',
      fr: "Le fichier texte n'est pas en UTF-8 valide. Enregistrez-le en UTF-8 et réessayez.",
      ar: 'الملف النصي ليس بترميز UTF-8 صالح. احفظه بترميز UTF-8 وأعد المحاولة.',
    },
  },
  language_required: {
    status: 400,
    messages: {
      en: 'The language is required.',
      fr: 'La langue est requise.',
      ar: 'اللغة مطلوبة.',
    },
  },
  language_invalid: {
    status: 400,
    messages: {
      en: 'The language must be an ISO 639-3 or ISO 639-1 code in lowercase letters (e.g. ara or ar, eng or en).',
      fr: 'La langue doit être un code ISO 639-3 ou ISO 639-1 en lettres minuscules (ex. ara ou ar, eng ou en).',
      ar: 'يجب أن تكون اللغة رمز ISO 639-3 أو ISO 639-1 بأحرف لاتينية صغيرة (مثل ara أو ar، eng أو en).',
    },
  },
  language_unsupported: {
    status: 400,
    messages: {
      en: 'The language "{code}" is not supported. See the list of supported languages.',
      fr: "La langue « {code} » n'est pas prise en charge. Consultez la liste des langues prises en charge.",
      ar: 'اللغة "{code}" غير مدعومة. راجع قائمة اللغات المدعومة.',
    },
  },
  engine_unavailable: {
    status: 400,
    messages: {
      en: 'The engine "{engine}" is not available on this server.',
      fr: "Le moteur « {engine} » n'est pas disponible sur ce serveur.",
      ar: 'المحرك "{engine}" غير متاح على هذا الخادم.',
    },
  },
  upload_failed: {
    status: 500,
    messages: {
      en: 'The upload failed. Please try again.',
      fr: "L'envoi a échoué. Veuillez réessayer.",
      ar: 'فشل الرفع. يرجى المحاولة مجددًا.',
    },
  },
  alignment_failed: {
    status: 500,
    messages: {
      en: 'The alignment failed because of a server error.',
      fr: "L'alignement a échoué à cause d'une erreur du serveur.",
      ar: 'فشلت المحاذاة بسبب خطأ في الخادم.',
    },
  },
  engine_failed: {
    status: 500,
    messages: {
      en: 'The alignment engine failed on this job, also on a fresh engine: {reason}. Your quota unit was given back; please try again later.',
      fr: "Le moteur d'alignement a échoué sur cette tâche, y compris sur un moteur neuf : {reason}. Votre unité de quota a été rendue ; veuillez réessayer plus tard.",
      ar: 'تعطّل محرك المحاذاة في هذه المهمة، حتى على محرك جديد: {reason}. أُعيدت إليك وحدة الحصة؛ يرجى المحاولة لاحقًا.',
    },
  },
  alignment_input_rejected: {
    status: 422,
    messages: {
      en: 'The engine cannot align this input: {reason}.',
      fr: 'Le moteur ne peut pas aligner cette entrée : {reason}.',
      ar: 'لا يستطيع المحرك محاذاة هذا الإدخال: {reason}.',
    },
  },
  job_interrupted: {
    status: 503,
    messages: {
      en: 'Processing was interrupted several times (server restarts). Please try again.',
      fr: 'Le traitement a été interrompu plusieurs fois (redémarrages du serveur). Veuillez réessayer.',
      ar: 'انقطعت المعالجة عدة مرات (إعادة تشغيل الخادم). يرجى المحاولة مجددًا.',
    },
  },
  job_cancelled: {
    status: 409,
    messages: {
      en: 'The alignment was cancelled.',
      fr: "L'alignement a été annulé.",
      ar: 'أُلغيت المحاذاة.',
    },
  },
  job_not_cancellable: {
    status: 409,
    messages: {
      en: 'Only a queued or running job can be cancelled; this one is {status}.',
      fr: 'Seule une tâche en attente ou en cours peut être annulée ; celle-ci est {status}.',
      ar: 'لا يمكن إلغاء إلا مهمة في الانتظار أو قيد التنفيذ؛ هذه المهمة حالتها {status}.',
    },
  },
  alignment_not_retryable: {
    status: 409,
    messages: {
      en: 'Only a failed or cancelled alignment can be retried; this one is {status}.',
      fr: 'Seul un alignement échoué ou annulé peut être relancé ; celui-ci est {status}.',
      ar: 'لا يمكن إعادة إلا محاذاة فشلت أو أُلغيت؛ هذه المحاذاة حالتها {status}.',
    },
  },
  job_not_retryable: {
    status: 409,
    messages: {
      en: 'Only a failed job can be retried; this one is {status}.',
      fr: 'Seule une tâche en échec peut être relancée ; celle-ci est {status}.',
      ar: 'لا يمكن إعادة تشغيل إلا مهمة فاشلة؛ هذه المهمة حالتها {status}.',
    },
  },
  alignment_not_ready: {
    status: 409,
    messages: {
      en: 'The alignment is not completed yet (status: {status}).',
      fr: "L'alignement n'est pas encore terminé (statut : {status}).",
      ar: 'لم تكتمل المحاذاة بعد (الحالة: {status}).',
    },
  },
  video_not_ready: {
    status: 409,
    messages: {
      en: 'The video is not ready (status: {status}).',
      fr: "La vidéo n'est pas prête (statut : {status}).",
      ar: 'الفيديو غير جاهز (الحالة: {status}).',
    },
  },
  video_failed: {
    status: 500,
    messages: {
      en: 'The video could not be rendered. Please try again.',
      fr: "La vidéo n'a pas pu être générée. Veuillez réessayer.",
      ar: 'تعذّر إنشاء الفيديو. يرجى المحاولة مجددًا.',
    },
  },
  // ---- Corpus work: batch uploads, personal tokens ----
  quota_insufficient: {
    status: 429,
    messages: {
      en: 'This batch needs {needed} alignments but only {remaining} fit in today’s quota ({limit} per day). Nothing was stored.',
      fr: 'Ce lot demande {needed} alignements mais seuls {remaining} tiennent dans le quota du jour ({limit} par jour). Rien n’a été enregistré.',
      ar: 'تحتاج هذه الدفعة إلى {needed} محاذاة لكن لا يتسع منها في حصة اليوم إلا {remaining} ({limit} في اليوم). لم يُحفظ شيء.',
    },
  },
  archive_invalid: {
    status: 400,
    messages: {
      en: 'The archive cannot be read as a zip file.',
      fr: 'L’archive ne peut pas être lue comme un fichier zip.',
      ar: 'لا يمكن قراءة الأرشيف كملف zip.',
    },
  },
  archive_unsafe: {
    status: 400,
    messages: {
      en: 'The archive was refused: {reason}.',
      fr: 'L’archive a été refusée : {reason}.',
      ar: 'رُفض الأرشيف: {reason}.',
    },
  },
  archive_too_large: {
    status: 413,
    messages: {
      en: 'The archive is too large (maximum {size}).',
      fr: 'L’archive est trop volumineuse (maximum {size}).',
      ar: 'الأرشيف كبير جدًا (الحد الأقصى {size}).',
    },
  },
  batch_empty: {
    status: 400,
    messages: {
      en: 'No recording with a matching transcript was found (audio and transcript must share a base name).',
      fr: 'Aucun enregistrement avec une transcription correspondante (l’audio et la transcription doivent avoir le même nom de base).',
      ar: 'لم يُعثر على تسجيل له نص مطابق (يجب أن يشترك الصوت والنص في الاسم الأساسي).',
    },
  },
  corpus_no_transcript: {
    status: 400,
    messages: {
      en: 'No transcript with the same base name (.lab, .txt or .TextGrid).',
      fr: 'Aucune transcription du même nom de base (.lab, .txt ou .TextGrid).',
      ar: 'لا يوجد نص بالاسم الأساسي نفسه (.lab أو .txt أو .TextGrid).',
    },
  },
  corpus_no_recording: {
    status: 400,
    messages: {
      en: 'No recording with the same base name.',
      fr: 'Aucun enregistrement du même nom de base.',
      ar: 'لا يوجد تسجيل بالاسم الأساسي نفسه.',
    },
  },
  corpus_duplicate: {
    status: 400,
    messages: {
      en: 'Another file with the same base name is used instead.',
      fr: 'Un autre fichier du même nom de base est utilisé à sa place.',
      ar: 'استُخدم بدلًا منه ملف آخر بالاسم الأساسي نفسه.',
    },
  },
  corpus_not_corpus_file: {
    status: 400,
    messages: {
      en: 'Neither a recording (WAV, MP3, M4A, OGG) nor a transcript (.lab, .txt, .TextGrid).',
      fr: 'Ni un enregistrement (WAV, MP3, M4A, OGG) ni une transcription (.lab, .txt, .TextGrid).',
      ar: 'ليس تسجيلًا (WAV أو MP3 أو M4A أو OGG) ولا نصًا (.lab أو .txt أو .TextGrid).',
    },
  },
  textgrid_unreadable: {
    status: 400,
    messages: {
      en: 'The TextGrid must hold the transcript in a single tier.',
      fr: 'Le TextGrid doit contenir la transcription sur un seul niveau (tier).',
      ar: 'يجب أن يحمل ملف TextGrid النص في طبقة واحدة.',
    },
  },
  textgrid_malformed: {
    status: 400,
    messages: {
      en: 'The TextGrid cannot be read: it is damaged, or it declares more intervals than it holds.',
      fr: 'Le TextGrid ne peut pas être lu : il est endommagé ou annonce plus d’intervalles qu’il n’en contient.',
      ar: 'تعذّرت قراءة ملف TextGrid: إنه تالف أو يعلن عن فترات أكثر مما يحتوي.',
    },
  },
  batch_too_large: {
    status: 413,
    messages: {
      en: 'This batch is too large: its files together may hold at most {size}. Nothing was stored.',
      fr: 'Ce lot est trop volumineux : ses fichiers réunis peuvent peser au plus {size}. Rien n’a été enregistré.',
      ar: 'هذه الدفعة كبيرة جدًا: لا يجوز أن يتجاوز مجموع ملفاتها {size}. لم يُحفظ شيء.',
    },
  },
  batch_text_too_large: {
    status: 413,
    messages: {
      en: 'The transcripts of this batch are too large together (maximum {size}). Split the corpus into several batches. Nothing was stored.',
      fr: 'Les transcriptions de ce lot sont trop volumineuses ensemble (maximum {size}). Répartissez le corpus en plusieurs lots. Rien n’a été enregistré.',
      ar: 'نصوص هذه الدفعة كبيرة جدًا مجتمعةً (الحد الأقصى {size}). قسّم المدوّنة إلى عدة دفعات. لم يُحفظ شيء.',
    },
  },
  text_control_characters: {
    status: 400,
    messages: {
      en: 'The transcript holds a NUL character (U+0000), which no text may contain. It is often the sign of a UTF-16 file: save it as UTF-8 and try again.',
      fr: 'La transcription contient un caractère NUL (U+0000), qu’aucun texte ne peut contenir. C’est souvent le signe d’un fichier UTF-16 : enregistrez-le en UTF-8 et réessayez.',
      ar: 'يحتوي النص على المحرف NUL ‏(U+0000) الذي لا يجوز أن يرد في أي نص. غالبًا ما يدل ذلك على ملف UTF-16: احفظه بترميز UTF-8 وأعد المحاولة.',
    },
  },
  batch_too_many: {
    status: 413,
    messages: {
      en: 'A batch holds at most {max} recordings; this one has {count}.',
      fr: 'Un lot contient au plus {max} enregistrements ; celui-ci en a {count}.',
      ar: 'تحتوي الدفعة على {max} تسجيل على الأكثر؛ وهذه فيها {count}.',
    },
  },
  session_required: {
    status: 403,
    messages: {
      en: 'Sign in to do this: a personal API token cannot manage tokens, sessions, the password or the account, nor act as an administrator.',
      fr: 'Connectez-vous pour faire ceci : un jeton d’API personnel ne peut pas gérer les jetons, les sessions, le mot de passe ni le compte, ni agir en administrateur.',
      ar: 'سجّل الدخول للقيام بهذا: لا يمكن لرمز API الشخصي إدارة الرموز أو الجلسات أو كلمة المرور أو الحساب، ولا التصرف كمسؤول.',
    },
  },
  // ---- Corrections (revisions) and re-alignment of a stretch ----
  revision_conflict: {
    status: 409,
    messages: {
      en: 'This alignment was changed meanwhile (it is now at revision {latest}). Reload it and apply your changes again.',
      fr: 'Cet alignement a été modifié entre-temps (il est maintenant à la révision {latest}). Rechargez-le et refaites vos modifications.',
      ar: 'عُدّلت هذه المحاذاة في الأثناء (هي الآن في المراجعة {latest}). أعد تحميلها وطبّق تعديلاتك من جديد.',
    },
  },
  revision_limit: {
    status: 409,
    messages: {
      en: 'This alignment already has {max} revisions, the most one alignment keeps. Export your corrections, or start again from a new upload.',
      fr: 'Cet alignement a déjà {max} révisions, le maximum qu’un alignement conserve. Exportez vos corrections, ou recommencez à partir d’un nouvel envoi.',
      ar: 'لهذه المحاذاة {max} مراجعة بالفعل، وهو أقصى ما تحتفظ به محاذاة واحدة. صدّر تصحيحاتك، أو ابدأ من جديد برفع جديد.',
    },
  },
  word_outside_audio: {
    status: 400,
    messages: {
      en: 'The word “{word}” (index {index}) must lie inside the audio, between 0 and {duration} s.',
      fr: 'Le mot « {word} » (index {index}) doit se trouver dans l’audio, entre 0 et {duration} s.',
      ar: 'يجب أن تقع الكلمة «{word}» (الفهرس {index}) داخل الصوت، بين 0 و{duration} ث.',
    },
  },
  word_end_before_start: {
    status: 400,
    messages: {
      en: 'The word “{word}” (index {index}) must end after it starts.',
      fr: 'Le mot « {word} » (index {index}) doit finir après son début.',
      ar: 'يجب أن تنتهي الكلمة «{word}» (الفهرس {index}) بعد بدايتها.',
    },
  },
  word_overlap: {
    status: 400,
    messages: {
      en: 'The word “{word}” (index {index}) overlaps “{other}”: words stay in order and must not overlap.',
      fr: 'Le mot « {word} » (index {index}) chevauche « {other} » : les mots restent dans l’ordre sans se chevaucher.',
      ar: 'الكلمة «{word}» (الفهرس {index}) تتداخل مع «{other}»: تبقى الكلمات مرتبة دون تداخل.',
    },
  },
  phone_invalid: {
    status: 400,
    messages: {
      en: 'The phone “{label}” (index {phone}) of the word “{word}” (index {index}) must end after it starts, stay inside its word and not overlap its neighbours.',
      fr: 'Le phone « {label} » (index {phone}) du mot « {word} » (index {index}) doit finir après son début, rester dans son mot et ne pas chevaucher ses voisins.',
      ar: 'يجب أن ينتهي الصوت «{label}» (الفهرس {phone}) من الكلمة «{word}» (الفهرس {index}) بعد بدايته، وأن يبقى داخل كلمته دون أن يتداخل مع جيرانه.',
    },
  },
  realign_busy: {
    status: 409,
    messages: {
      en: 'A stretch of this alignment is already being re-aligned. Wait for it to finish.',
      fr: 'Un passage de cet alignement est déjà en cours de réalignement. Attendez qu’il se termine.',
      ar: 'يُعاد الآن ضبط مقطع من هذه المحاذاة. انتظر حتى ينتهي.',
    },
  },
  realign_empty: {
    status: 400,
    messages: {
      en: 'There is nothing to re-align between {start} s and {end} s: no word lies there (a word corrected by hand is re-aligned only when the stretch covers all of it) and no text was given.',
      fr: 'Rien à réaligner entre {start} s et {end} s : aucun mot ne s’y trouve (un mot corrigé à la main n’est réaligné que si le passage le couvre en entier) et aucun texte n’a été donné.',
      ar: 'لا شيء لإعادة محاذاته بين {start} ث و{end} ث: لا توجد كلمات هناك (لا يُعاد محاذاة كلمة مصحَّحة يدويًا إلا إذا غطّاها المقطع كلها) ولم يُعطَ نص.',
    },
  },
  realign_too_long: {
    status: 400,
    messages: {
      en: 'A stretch to re-align must be shorter than {max} s and end after it starts (this one covers {start} – {end} s of {duration} s).',
      fr: 'Un passage à réaligner doit durer moins de {max} s et finir après son début (celui-ci couvre {start} – {end} s sur {duration} s).',
      ar: 'يجب أن يكون المقطع المُعاد محاذاته أقصر من {max} ث وأن ينتهي بعد بدايته (هذا يغطي {start} – {end} ث من {duration} ث).',
    },
  },
  realign_failed: {
    status: 500,
    messages: {
      en: 'The stretch could not be re-aligned: {reason}.',
      fr: 'Le passage n’a pas pu être réaligné : {reason}.',
      ar: 'تعذّرت إعادة محاذاة المقطع: {reason}.',
    },
  },
  too_many_videos: {
    status: 429,
    messages: {
      en: 'You already have {count} videos waiting or rendering (at most {max} at a time). Wait for one to finish, then try again.',
      fr: 'Vous avez déjà {count} vidéos en attente ou en cours de rendu (au plus {max} à la fois). Attendez qu’une se termine, puis réessayez.',
      ar: 'لديك بالفعل {count} مقاطع فيديو في الانتظار أو قيد الإنشاء (بحد أقصى {max} في آن واحد). انتظر حتى ينتهي أحدها ثم أعد المحاولة.',
    },
  },
  too_many_realignments: {
    status: 429,
    messages: {
      en: 'You already have {count} re-alignments waiting or running (at most {max} at a time). Wait for one to finish, then try again.',
      fr: 'Vous avez déjà {count} réalignements en attente ou en cours (au plus {max} à la fois). Attendez qu’un se termine, puis réessayez.',
      ar: 'لديك بالفعل {count} عمليات إعادة محاذاة في الانتظار أو قيد التنفيذ (بحد أقصى {max} في آن واحد). انتظر حتى تنتهي إحداها ثم أعد المحاولة.',
    },
  },
  corpus_too_small: {
    status: 422,
    messages: {
      en: 'Too little speech to adapt a model: the recordings gave {seconds} s of usable speech in this language, and adaptation needs at least {needed} s. Add recordings to the project (or correct more of them), then try again.',
      fr: 'Trop peu de parole pour adapter un modèle : les enregistrements ont donné {seconds} s de parole exploitable dans cette langue, et l’adaptation en demande au moins {needed} s. Ajoutez des enregistrements au projet (ou corrigez-en davantage), puis réessayez.',
      ar: 'الكلام أقل من أن يكفي لتكييف نموذج: أعطت التسجيلات {seconds} ث من الكلام الصالح بهذه اللغة، ويحتاج التكييف إلى {needed} ث على الأقل. أضف تسجيلات إلى المشروع (أو صحّح المزيد منها) ثم أعد المحاولة.',
    },
  },
  adaptation_running: {
    status: 409,
    messages: {
      en: 'One of your models is already being adapted (one at a time). Wait for it to finish, then try again.',
      fr: 'Un de vos modèles est déjà en cours d’adaptation (un à la fois). Attendez qu’il se termine, puis réessayez.',
      ar: 'يجري الآن تكييف أحد نماذجك (نموذج واحد في كل مرة). انتظر حتى ينتهي ثم أعد المحاولة.',
    },
  },
  model_storage_full: {
    status: 409,
    messages: {
      en: 'Your adapted models take {used} MB of the {limit} MB you may keep, and a new one needs about {needed} MB. Delete a model you no longer use, then try again.',
      fr: 'Vos modèles adaptés occupent {used} Mo sur les {limit} Mo autorisés, et un nouveau demande environ {needed} Mo. Supprimez un modèle dont vous ne vous servez plus, puis réessayez.',
      ar: 'تشغل نماذجك المكيَّفة {used} م.ب من أصل {limit} م.ب المسموح بها، ويحتاج نموذج جديد إلى نحو {needed} م.ب. احذف نموذجًا لم تعد تستخدمه ثم أعد المحاولة.',
    },
  },
  adaptation_unsupported: {
    status: 400,
    messages: {
      en: 'A model cannot be adapted for this language here: only languages the built-in aligner reads (not MMS) can be adapted.',
      fr: 'Impossible d’adapter un modèle pour cette langue ici : seules les langues que lit l’aligneur intégré (pas MMS) peuvent l’être.',
      ar: 'لا يمكن تكييف نموذج لهذه اللغة هنا: لا يُكيَّف إلا ما يقرؤه المحاذي المدمج من لغات (لا MMS).',
    },
  },
  model_not_ready: {
    status: 409,
    messages: {
      en: 'This model is not ready: its adaptation is {status}. Only a completed model can re-align the project.',
      fr: 'Ce modèle n’est pas prêt : son adaptation est à l’état « {status} ». Seul un modèle terminé peut réaligner le projet.',
      ar: 'هذا النموذج غير جاهز: حالة تكييفه «{status}». لا يُعيد محاذاة المشروع إلا نموذج مكتمل.',
    },
  },
  adaptation_failed: {
    status: 500,
    messages: {
      en: 'The model could not be adapted: {reason}.',
      fr: 'Le modèle n’a pas pu être adapté : {reason}.',
      ar: 'تعذّر تكييف النموذج: {reason}.',
    },
  },
  range_not_satisfiable: {
    status: 416,
    messages: {
      en: 'The requested byte range is not satisfiable.',
      fr: "La plage d'octets demandée ne peut être servie.",
      ar: 'نطاق البايتات المطلوب غير قابل للتلبية.',
    },
  },
  insufficient_storage: {
    status: 507,
    messages: {
      en: 'The server is running out of storage space; uploads are paused. Please try again later.',
      fr: "Le serveur manque d'espace de stockage ; les envois sont suspendus. Veuillez réessayer plus tard.",
      ar: 'مساحة التخزين في الخادم توشك على النفاد؛ أُوقف الرفع مؤقتًا. يرجى المحاولة لاحقًا.',
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
