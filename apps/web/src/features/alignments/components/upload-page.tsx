import { useMemo, useRef, useState } from 'react';
import { PronunciationPreview } from './pronunciation-preview.tsx';
import type { DragEvent, FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGE_CODE } from '@tazamun/contracts/alignments';
import { ENGINES } from '@tazamun/contracts/alignment-options';
import { LIMITS, PRECISIONS } from '@tazamun/contracts/limits';
import { JOB_BOUNDS } from '@tazamun/contracts/job-bounds';
import { checkLanguage } from '@tazamun/contracts/language-check';
import { useUser } from '../../../lib/api/get-user.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useLanguages } from '../../../lib/api/get-languages.ts';
import { contentDirection } from '../../../lib/content-direction.ts';
import { languageOptions } from '../../../lib/language-search.ts';
import { formatBytes, formatNumber } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, CardTitle, PageHeader } from '../../../components/ui/card.tsx';
import { Checkbox, InputField, SelectField, TextareaField } from '../../../components/ui/field.tsx';
import { LanguagePicker } from '../../../components/alignment/language-picker.tsx';
import { FileIcon, UploadIcon } from '../../../components/ui/icons.tsx';
import { useUiStore } from '../../../stores/ui-store.ts';
import { decodeTextBytes } from '../../../lib/decode-text-file.ts';
import { useUploadAlignment } from '../api/alignments-api.ts';

const AUDIO_ACCEPT = LIMITS.audioFormats.map((f) => `.${f}`).join(',');
const FORMATS_LABEL = LIMITS.audioFormats.map((f) => f.toUpperCase()).join(', ');

function extensionOf(name: string): string {
  return name.split('.').pop()?.toLowerCase() ?? '';
}

/** Job-bound refusals (packages/contracts/src/job-bounds.ts) and the field each belongs to. */
const BOUND_FIELDS: Record<string, 'audio' | 'text'> = {
  transcript_too_long: 'text',
  audio_too_long: 'audio',
  audio_sample_rate_too_low: 'audio',
};

export function UploadPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const languages = useLanguages();
  const notify = useUiStore((s) => s.notify);
  const { user } = useUser();
  const audioInput = useRef<HTMLInputElement>(null);
  const textInput = useRef<HTMLInputElement>(null);
  const [language, setLanguage] = useState(user?.preferences.default_alignment_language ?? 'ara');
  const [audio, setAudio] = useState<File | null>(null);
  const [text, setText] = useState('');
  const [textFile, setTextFile] = useState<File | null>(null);
  // The encoding a non-UTF-8 text file was converted from, shown once under the transcript.
  const [convertedFrom, setConvertedFrom] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [precision, setPrecision] = useState<(typeof PRECISIONS)[number]>('standard');
  const [engine, setEngine] = useState<(typeof ENGINES)[number]>('auto');
  const [normalize, setNormalize] = useState(true);
  const [removeFillers, setRemoveFillers] = useState(false);
  const [numbersToWords, setNumbersToWords] = useState(true);
  const [dragging, setDragging] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const counts = useMemo(() => {
    const trimmed = text.trim();
    return { chars: text.length, words: trimmed ? trimmed.split(/\s+/u).length : 0 };
  }, [text]);
  // As the user types: which language the text is written in, and whether it is the one chosen.
  const langCheck = useMemo(
    () => (/^[a-z]{3}$/.test(language) ? checkLanguage(text, language) : null),
    [text, language],
  );
  const languageNames = useMemo(
    () => languageOptions(languages.data?.results ?? [], i18n.language),
    [languages.data, i18n.language],
  );
  const nameOf = (code: string) => languageNames.find((o) => o.code === code)?.label ?? code;

  const mutation = useUploadAlignment({
    onSuccess: (job) => {
      notify({ type: 'info', title: t('upload.queued'), message: job.title });
      void navigate(`/results/${job.id}`);
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        // The field names where the error belongs; the message is the catalogue's, in the interface
        // language (the field entries themselves are English, for API clients).
        const mapped: Record<string, string> = {};
        for (const field of ['audio', 'text', 'text_file', 'language']) {
          if (error.fieldErrors(field).length > 0) mapped[field] = error.message;
        }
        // A job beyond its bounds: the server's localised message, whose numbers it computed.
        const boundField = error.code ? BOUND_FIELDS[error.code] : undefined;
        if (boundField) mapped[boundField] = error.message;
        setErrors(mapped);
      }
    },
  });

  const pickAudio = (file: File | undefined) => {
    if (!file) return;
    const next = { ...errors };
    delete next.audio;
    if (!(LIMITS.audioFormats as readonly string[]).includes(extensionOf(file.name))) {
      next.audio = t('upload.errors.audioFormat', { formats: FORMATS_LABEL });
      setAudio(null);
    } else if (file.size > LIMITS.audioMaxBytes) {
      next.audio = t('upload.errors.audioTooLarge', { size: formatBytes(LIMITS.audioMaxBytes) });
      setAudio(null);
    } else {
      setAudio(file);
      if (!title) setTitle(file.name.replace(/\.[^.]+$/, ''));
    }
    setErrors(next);
  };

  const pickText = (file: File | undefined) => {
    if (!file) return;
    if (file.size > LIMITS.textFileMaxBytes) {
      setErrors((e) => ({
        ...e,
        text: t('upload.errors.textTooLarge', { size: formatBytes(LIMITS.textFileMaxBytes) }),
      }));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      const decoded = decodeTextBytes(new Uint8Array(reader.result as ArrayBuffer));
      setText(decoded.text);
      // A converted file goes to the server as the UTF-8 text shown, not as its original bytes.
      setTextFile(decoded.converted ? null : file);
      setConvertedFrom(decoded.converted ? decoded.encoding : null);
    };
    reader.readAsArrayBuffer(file);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    pickAudio(event.dataTransfer.files[0]);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (!LANGUAGE_CODE.test(language)) next.language = t('upload.errors.language');
    // A refused file keeps its reason ("too large") rather than becoming "choose a file".
    if (!audio) next.audio = errors.audio ?? t('upload.errors.audioRequired');
    if (!text.trim()) next.text = t('upload.errors.textRequired');
    setErrors(next);
    if (Object.keys(next).length > 0 || !audio) return;
    const form = new FormData();
    form.append('language', language);
    form.append('precision', precision);
    form.append('engine', engine);
    form.append('normalize', String(normalize));
    form.append('remove_fillers', String(removeFillers));
    form.append('numbers_to_words', String(numbersToWords));
    if (title.trim()) form.append('title', title.trim());
    // Text fields before the files: the server streams the parts in order.
    // textFile is cleared as soon as the text is edited, so it still holds exactly what is shown.
    if (textFile) form.append('text_file', textFile);
    else form.append('text', text);
    form.append('audio', audio);
    mutation.mutate(form);
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <PageHeader
        title={t('upload.title')}
        subtitle={
          user &&
          t('upload.quota', {
            remaining: formatNumber(user.quota.remaining),
            limit: formatNumber(user.quota.daily_limit),
          })
        }
      />
      <form onSubmit={onSubmit} noValidate className="grid gap-6 lg:grid-cols-[1.6fr_1fr]">
        <div className="space-y-6">
          <Card>
            <CardTitle>{t('upload.audio.title')}</CardTitle>
            <div
              role="button"
              tabIndex={0}
              onClick={() => audioInput.current?.click()}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && audioInput.current?.click()}
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              aria-describedby="audio-hint"
              className={`flex cursor-pointer flex-col items-center justify-center rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors ${
                dragging
                  ? 'border-accent bg-accent-soft'
                  : errors.audio
                    ? 'border-danger'
                    : 'border-border hover:border-accent/60'
              }`}
            >
              <UploadIcon size={28} className="text-accent" />
              {audio ? (
                <p className="mt-3 font-medium" dir="auto">
                  {audio.name} <span className="text-sm text-muted">({formatBytes(audio.size)})</span>
                </p>
              ) : (
                <p className="mt-3 font-medium">{t('upload.audio.drop')}</p>
              )}
              <p id="audio-hint" className="mt-1 text-sm text-muted">
                {t('upload.audio.hint', { formats: FORMATS_LABEL, size: formatBytes(LIMITS.audioMaxBytes) })}
              </p>
              <input
                ref={audioInput}
                type="file"
                accept={AUDIO_ACCEPT}
                className="hidden"
                data-testid="audio-input"
                onChange={(e) => {
                  pickAudio(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </div>
            {errors.audio && (
              <p role="alert" className="mt-2 text-sm text-danger">
                {errors.audio}
              </p>
            )}
          </Card>

          <Card>
            <CardTitle
              action={
                <Button size="sm" variant="secondary" onClick={() => textInput.current?.click()}>
                  <FileIcon size={16} /> {t('upload.text.file')}
                </Button>
              }
            >
              {t('upload.text.title')}
            </CardTitle>
            <input
              ref={textInput}
              type="file"
              accept=".txt,text/plain"
              className="hidden"
              onChange={(e) => {
                pickText(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            <TextareaField
              label={t('upload.text.label')}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setTextFile(null);
                setConvertedFrom(null);
              }}
              dir={contentDirection(language)}
              lang={language}
              className="min-h-56"
              error={errors.text ?? errors.text_file}
              hint={t('upload.text.hint', { size: formatBytes(LIMITS.textFileMaxBytes) })}
            />
            {convertedFrom && (
              <p className="mt-2 text-sm text-accent" data-testid="text-converted">
                {t('upload.text.converted', { encoding: convertedFrom.toUpperCase() })}
              </p>
            )}
            <p className="mt-2 text-sm text-muted" data-testid="text-counts">
              {t('upload.text.counts', {
                chars: formatNumber(counts.chars),
                words: formatNumber(counts.words),
              })}
              {langCheck?.detected && (
                <span data-testid="detected-language">
                  {' · '}
                  {t('upload.languageCheck.detected', { detected: nameOf(langCheck.detected) })}
                </span>
              )}
            </p>
            <PronunciationPreview language={language} text={text} />
          </Card>
        </div>

        <div className="space-y-6">
          <Card>
            <CardTitle>{t('upload.settings')}</CardTitle>
            <div className="space-y-4">
              <InputField
                label={t('upload.titleField')}
                value={title}
                maxLength={200}
                dir="auto"
                onChange={(e) => setTitle(e.target.value)}
              />
              <LanguagePicker
                label={t('upload.language.label')}
                value={language}
                onChange={setLanguage}
                error={errors.language}
              />
              <details className="rounded-xl border border-border p-4">
                <summary className="cursor-pointer text-sm font-medium">{t('upload.advanced')}</summary>
                <div className="mt-4 space-y-4">
                  <SelectField
                    label={t('upload.precision.label')}
                    value={precision}
                    onChange={(e) => setPrecision(e.target.value as typeof precision)}
                  >
                    {PRECISIONS.map((p) => (
                      <option key={p} value={p}>
                        {t(`upload.precision.${p}`)}
                      </option>
                    ))}
                  </SelectField>
                  <SelectField
                    label={t('upload.engine.label')}
                    value={engine}
                    onChange={(e) => setEngine(e.target.value as typeof engine)}
                  >
                    {ENGINES.map((en) => (
                      <option key={en} value={en}>
                        {t(`upload.engine.${en}`)}
                      </option>
                    ))}
                  </SelectField>
                  <Checkbox
                    label={t('upload.options.normalize')}
                    checked={normalize}
                    onChange={(e) => setNormalize(e.target.checked)}
                  />
                  <Checkbox
                    label={t('upload.options.fillers')}
                    checked={removeFillers}
                    onChange={(e) => setRemoveFillers(e.target.checked)}
                  />
                  <Checkbox
                    label={t('upload.options.numbers')}
                    checked={numbersToWords}
                    onChange={(e) => setNumbersToWords(e.target.checked)}
                  />
                </div>
              </details>
              {langCheck?.disagrees && langCheck.detected && (
                <div data-testid="language-warning">
                  <Alert tone="warning">
                    {t('upload.languageCheck.mismatch', {
                      detected: nameOf(langCheck.detected),
                      chosen: nameOf(language),
                    })}
                  </Alert>
                </div>
              )}
              {mutation.error && !Object.keys(errors).length && (
                <Alert tone="danger">{mutation.error.message}</Alert>
              )}
              <Button type="submit" size="lg" className="w-full" loading={mutation.isPending}>
                {mutation.isPending ? t('upload.sending') : t('upload.submit')}
              </Button>
              <p className="text-xs text-muted">{t('upload.note')}</p>
              <p className="text-xs text-muted">
                {t('upload.bounds', {
                  words: JOB_BOUNDS.maxWordsPerAudioSecond,
                  characters: JOB_BOUNDS.maxCharactersPerAudioSecond,
                  rate: formatNumber(JOB_BOUNDS.minSampleRate),
                })}
              </p>
            </div>
          </Card>
        </div>
      </form>
    </div>
  );
}
