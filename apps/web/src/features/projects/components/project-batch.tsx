import { useState } from 'react';
import type { DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchResponse } from '@tazamun/contracts/projects';
import { saveBlob } from '../../../lib/download.ts';
import { VerdictBadge } from '../../../components/alignment/verdict.tsx';
import { formatPercent } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { LanguagePicker } from '../../../components/alignment/language-picker.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useDownloadProjectExport, useRetryRecordings, useUploadBatch } from '../api/corpus-api.ts';
import { useProjectBatch } from '../api/get-project-batch.ts';
import { useProjectLanguage } from '../hooks/use-project-language.ts';
import type { BatchInput } from '../api/corpus-api.ts';

/** The files of a dropped folder, each with its path relative to the drop (MFA's layout needs folders). */
async function filesOf(entry: FileSystemEntry, prefix = ''): Promise<{ file: File; path: string }[]> {
  if (entry.isFile)
    return [
      {
        file: await new Promise<File>((resolve, reject) =>
          (entry as FileSystemFileEntry).file(resolve, reject),
        ),
        path: `${prefix}${entry.name}`,
      },
    ];
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const out: { file: File; path: string }[] = [];
  // readEntries answers in pages until it gives an empty one
  for (;;) {
    const page = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (page.length === 0) return out;
    for (const e of page) out.push(...(await filesOf(e, `${prefix}${entry.name}/`)));
  }
}

async function dropped(e: DragEvent): Promise<BatchInput | null> {
  const zip = [...e.dataTransfer.files].find((f) => /\.zip$/i.test(f.name));
  if (zip && e.dataTransfer.files.length === 1) return { zip };
  const items = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry()).filter((x) => x !== null);
  const files = (await Promise.all(items.map((it) => filesOf(it)))).flat();
  return files.length ? { files } : null;
}

export function ProjectBatch({ projectId, projectName }: { projectId: string; projectName: string }) {
  const { t } = useTranslation();
  // The recordings' language: as chosen, else the language of the project's recordings. An empty
  // project assumes nothing (not the account's default): a corpus is aligned in the language it is in.
  const projectLanguage = useProjectLanguage(projectId);
  const [chosen, setLanguage] = useState<string | null>(null);
  const language = chosen ?? projectLanguage;
  const languageValid = /^[a-z]{3}$/.test(language);
  const [over, setOver] = useState(false);
  const [last, setLast] = useState<BatchResponse | null>(null);
  const rows = useProjectBatch(projectId);
  const send = useUploadBatch(projectId, language, {
    onSuccess: (r) => {
      setLast(r);
      toast.success(t('projects.batch.queued', { count: r.alignments.length }));
    },
    onError: (e) => toast.error(e.message),
  });
  const download = useDownloadProjectExport(projectId, {
    onSuccess: (blob) => saveBlob(blob, `${projectName}-textgrid.zip`),
    onError: (e) => toast.error(e.message),
  });
  const list = rows.data?.results ?? [];
  const completed = list.filter((a) => a.status === 'completed').length;
  const failed = list.filter((a) => a.status === 'failed' || a.status === 'cancelled');
  // one retry per failed recording, same files and options, one quota unit each (as an upload)
  const retry = useRetryRecordings({
    onSuccess: (count) => toast.success(t('projects.batch.retried', { count })),
    onError: (e) => toast.error(e.message),
  });

  return (
    <section aria-label={t('projects.batch.title')} className="mb-6 space-y-3">
      <div
        data-testid="batch-dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          if (languageValid) void dropped(e).then((input) => input && send.mutate(input));
          else toast.error(t('projects.batch.languageFirst'));
        }}
        className={`rounded-xl border-2 border-dashed p-4 text-sm ${over ? 'border-accent bg-surface-2' : 'border-border'}`}
      >
        <p className="mb-3 text-muted">{t('projects.batch.hint')}</p>
        <div className="flex flex-wrap items-end gap-3">
          <div className="w-full sm:w-72">
            <LanguagePicker
              label={t('projects.batch.language')}
              value={language}
              onChange={setLanguage}
              error={
                languageValid
                  ? null
                  : language === ''
                    ? t('projects.batch.languageFirst')
                    : t('profile.preferences.alignmentLanguageInvalid')
              }
            />
          </div>
          <label className="inline-flex cursor-pointer items-center rounded-md border border-border px-3 py-2">
            {t('projects.batch.chooseZip')}
            <input
              type="file"
              accept=".zip,application/zip"
              className="sr-only"
              disabled={send.isPending || !languageValid}
              onChange={(e) => {
                const zip = e.target.files?.[0];
                if (zip) send.mutate({ zip });
                e.target.value = '';
              }}
            />
          </label>
          <label className="inline-flex cursor-pointer items-center rounded-md border border-border px-3 py-2">
            {t('projects.batch.chooseFolder')}
            <input
              type="file"
              multiple
              className="sr-only"
              disabled={send.isPending || !languageValid}
              {...{ webkitdirectory: '' }}
              onChange={(e) => {
                const files = [...(e.target.files ?? [])].map((file) => ({
                  file,
                  path: file.webkitRelativePath || file.name,
                }));
                if (files.length) send.mutate({ files });
                e.target.value = '';
              }}
            />
          </label>
          <Button
            size="sm"
            variant="secondary"
            disabled={completed === 0}
            loading={download.isPending}
            onClick={() => download.mutate()}
          >
            {t('projects.batch.download')}
          </Button>
        </div>
      </div>
      {send.isPending && <Alert tone="info">{t('projects.batch.sending')}</Alert>}
      {last && last.skipped.length > 0 && (
        <Alert tone="warning">
          <p className="font-medium">{t('projects.batch.skipped', { count: last.skipped.length })}</p>
          <ul className="mt-1 list-inside list-disc">
            {last.skipped.map((s) => (
              <li key={s.name}>
                <span dir="ltr">{s.name}</span>: {s.reason}
              </li>
            ))}
          </ul>
        </Alert>
      )}
      {failed.length > 0 && (
        <Button
          variant="secondary"
          size="sm"
          loading={retry.isPending}
          onClick={() => retry.mutate(failed.map((a) => a.id))}
          data-testid="batch-retry-failed"
        >
          {t('projects.batch.retryFailed', { count: failed.length })}
        </Button>
      )}
      {list.length > 0 && (
        <div className="scroll-cue-x overflow-x-auto">
          <table className="w-full text-sm" data-testid="batch-table">
            <thead>
              <tr className="text-start text-muted">
                <th className="px-2 py-1 text-start">{t('projects.batch.file')}</th>
                <th className="px-2 py-1 text-start">{t('projects.batch.status')}</th>
                <th className="px-2 py-1 text-start">{t('projects.batch.verdict')}</th>
                <th className="px-2 py-1 text-end">{t('projects.batch.coverage')}</th>
                <th className="px-2 py-1 text-end">{t('projects.batch.confidence')}</th>
              </tr>
            </thead>
            <tbody>
              {[...list]
                .sort((a, b) => (a.file_name < b.file_name ? -1 : 1))
                .map((a) => (
                  <tr key={a.id} className="border-t border-border">
                    <td className="px-2 py-1 text-start">
                      <bdi dir="ltr" className="break-all">
                        {a.file_name}
                      </bdi>
                    </td>
                    <td className="px-2 py-1 whitespace-nowrap">{t(`results.status.${a.status}`)}</td>
                    <td className="px-2 py-1">
                      {a.verdict ? <VerdictBadge verdict={a.verdict} /> : (a.error?.detail ?? '—')}
                    </td>
                    <td className="px-2 py-1 text-end tabular-nums">
                      {a.coverage === null ? '—' : formatPercent(a.coverage)}
                    </td>
                    <td className="px-2 py-1 text-end tabular-nums">
                      {a.confidence === null ? '—' : formatPercent(a.confidence)}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
