import { useMemo, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
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
import { useProjects } from '../../../lib/api/get-projects.ts';
import { LanguagePicker } from '../../../components/alignment/language-picker.tsx';
import { FileIcon, UploadIcon } from '../../../components/ui/icons.tsx';
import { useUiStore } from '../../../stores/ui-store.ts';
import { decodeTextBytes } from '../../../lib/decode-text-file.ts';
import { WORDS, useFieldErrorText } from '../../../lib/form-errors.ts';
import { UploadForm, uploadFormData, useUploadAlignment } from '../api/alignments-api.ts';
import type { UploadFormInput, UploadFormOutput } from '../api/alignments-api.ts';
import { PronunciationPreview } from './pronunciation-preview.tsx';
import { Sep } from '../../../components/ui/separator.tsx';

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
  const errorText = useFieldErrorText();
  const audioInput = useRef<HTMLInputElement>(null);
  const textInput = useRef<HTMLInputElement>(null);
  // Checked on submit (UploadForm, over the contracts' options); the errors stay until the next one.
  const form = useForm<UploadFormInput, unknown, UploadFormOutput>({
    resolver: zodResolver(UploadForm),
    defaultValues: {
      language: user?.preferences.default_alignment_language ?? 'ara',
      audio: null,
      text: '',
      text_file: null,
      title: '',
      project_id: '',
      precision: 'standard',
      engine: 'auto',
      normalize: true,
      remove_fillers: false,
      numbers_to_words: true,
    },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const [language, audio, text, projectId] = useWatch({
    control: form.control,
    name: ['language', 'audio', 'text', 'project_id'],
  });
  const projects = useProjects();
  const project = projects.data?.results.find((p) => p.id === projectId);
  // Why the last file chosen was refused: it stays the audio's error after Start ("too large" rather than
  // "choose a file").
  const [audioRefusal, setAudioRefusal] = useState<string | null>(null);
  // The encoding a non-UTF-8 text file was converted from, shown once under the transcript.
  const [convertedFrom, setConvertedFrom] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

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
      notify({ type: 'info', title: t('upload.queued'), message: job.title, subject: job.id });
      void navigate(`/results/${job.id}`);
    },
    onError: (error) => {
      if (!(error instanceof ApiError)) return;
      // The field names where the error belongs; the message is the catalogue's, in the interface
      // language (the field entries themselves are English, for API clients).
      for (const field of ['audio', 'text', 'text_file', 'language'] as const)
        if (error.fieldErrors(field).length > 0)
          form.setError(field, { type: WORDS, message: error.message });
      // A job beyond its bounds: the server's localised message, whose numbers it computed.
      const boundField = error.code ? BOUND_FIELDS[error.code] : undefined;
      if (boundField) form.setError(boundField, { type: WORDS, message: error.message });
    },
  });

  const refuseAudio = (message: string) => {
    setAudioRefusal(message);
    form.setValue('audio', null);
    form.setError('audio', { type: WORDS, message });
  };

  const pickAudio = (file: File | undefined) => {
    if (!file) return;
    form.clearErrors('audio');
    if (!(LIMITS.audioFormats as readonly string[]).includes(extensionOf(file.name)))
      return refuseAudio(t('upload.errors.audioFormat', { formats: FORMATS_LABEL }));
    if (file.size > LIMITS.audioMaxBytes)
      return refuseAudio(t('upload.errors.audioTooLarge', { size: formatBytes(LIMITS.audioMaxBytes) }));
    setAudioRefusal(null);
    form.setValue('audio', file);
    if (!form.getValues('title')) form.setValue('title', file.name.replace(/\.[^.]+$/, ''));
  };

  const pickText = (file: File | undefined) => {
    if (!file) return;
    if (file.size > LIMITS.textFileMaxBytes) {
      form.setError('text', {
        type: WORDS,
        message: t('upload.errors.textTooLarge', { size: formatBytes(LIMITS.textFileMaxBytes) }),
      });
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      const decoded = decodeTextBytes(new Uint8Array(reader.result as ArrayBuffer));
      form.setValue('text', decoded.text);
      // A converted file goes to the server as the UTF-8 text shown, not as its original bytes.
      form.setValue('text_file', decoded.converted ? null : file);
      setConvertedFrom(decoded.converted ? decoded.encoding : null);
    };
    reader.readAsArrayBuffer(file);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    pickAudio(event.dataTransfer.files[0]);
  };

  const onSubmit = form.handleSubmit(
    (values) => mutation.mutate(uploadFormData(values)),
    () => {
      if (audioRefusal && !form.getValues('audio'))
        form.setError('audio', { type: WORDS, message: audioRefusal });
    },
  );
  const audioError = errorText(errors.audio);

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
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-6 lg:grid-cols-[1.6fr_1fr]">
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
                  : audioError
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
            {audioError && (
              <p role="alert" className="mt-2 text-sm text-danger">
                {audioError}
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
              {...form.register('text', {
                // the file no longer holds what is shown once the text is edited
                onChange: () => {
                  form.setValue('text_file', null);
                  setConvertedFrom(null);
                },
              })}
              dir={contentDirection(language)}
              lang={language}
              className="min-h-56"
              error={errorText(errors.text) ?? errorText(errors.text_file)}
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
                  <Sep />
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
                maxLength={200}
                dir="auto"
                {...form.register('title')}
              />
              {(projects.data?.results.length ?? 0) > 0 && (
                <div>
                  <SelectField label={t('upload.project')} {...form.register('project_id')}>
                    <option value="">{t('upload.noProject')}</option>
                    {projects.data!.results.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                  </SelectField>
                  {project?.use_adapted_model && (
                    <p className="mt-1 text-sm text-muted" data-testid="upload-project-model">
                      {t('upload.projectModel')}
                    </p>
                  )}
                </div>
              )}
              <Controller
                control={form.control}
                name="language"
                render={({ field }) => (
                  <LanguagePicker
                    label={t('upload.language.label')}
                    value={field.value}
                    onChange={field.onChange}
                    error={errorText(errors.language)}
                  />
                )}
              />
              <details className="rounded-xl border border-border p-4">
                <summary className="cursor-pointer text-sm font-medium">{t('upload.advanced')}</summary>
                <div className="mt-4 space-y-4">
                  <SelectField label={t('upload.precision.label')} {...form.register('precision')}>
                    {PRECISIONS.map((p) => (
                      <option key={p} value={p}>
                        {t(`upload.precision.${p}`)}
                      </option>
                    ))}
                  </SelectField>
                  <SelectField label={t('upload.engine.label')} {...form.register('engine')}>
                    {ENGINES.map((en) => (
                      <option key={en} value={en}>
                        {t(`upload.engine.${en}`)}
                      </option>
                    ))}
                  </SelectField>
                  <Checkbox label={t('upload.options.normalize')} {...form.register('normalize')} />
                  <Checkbox label={t('upload.options.fillers')} {...form.register('remove_fillers')} />
                  <Checkbox label={t('upload.options.numbers')} {...form.register('numbers_to_words')} />
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
              {mutation.error && Object.keys(errors).length === 0 && (
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
