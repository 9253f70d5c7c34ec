import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FILE_EXPORT_FORMATS } from '@tazamun/contracts/exports';
import { saveBlob } from '../../../lib/download.ts';
import { formatBytes } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardTitle } from '../../../components/ui/card.tsx';
import { Checkbox, InputField, SelectField } from '../../../components/ui/field.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useDownloadVideo, useExportFile, useRequestVideo } from '../api/alignments-api.ts';
import { useVideo } from '../../../lib/api/get-video.ts';

type Format = (typeof FILE_EXPORT_FORMATS)[number];
const EXTENSIONS: Record<Format, string> = {
  json: 'json',
  textgrid: 'TextGrid',
  vtt: 'vtt',
  srt: 'srt',
  csv: 'csv',
  eaf: 'eaf',
  readalong: 'html',
  epub: 'epub',
};

function FileExport({ id, baseName }: { id: string; baseName: string }) {
  const { t } = useTranslation();
  const [format, setFormat] = useState<Format>('json');
  const [o, setO] = useState({
    include_metrics: true,
    include_audio: false,
    pretty: true,
    tier_name: 'words',
    phone_tier: true,
    phone_label: 'ipa' as 'ipa' | 'model',
    min_segment_duration: '1',
    words_per_line: '7',
    timestamps: false,
    separator: 'comma',
    headers: true,
  });
  const set = <K extends keyof typeof o>(k: K, v: (typeof o)[K]) => setO((prev) => ({ ...prev, [k]: v }));
  const mutation = useExportFile(id, {
    onSuccess: (blob) => {
      saveBlob(blob, `${baseName}.${EXTENSIONS[format]}`);
      toast.success(t('export.done'));
    },
    onError: (e) => toast.error(e.message),
  });
  const download = () => {
    const params: Record<string, string> = {};
    if (format === 'json')
      Object.assign(params, {
        include_metrics: o.include_metrics,
        include_audio: o.include_audio,
        pretty: o.pretty,
      });
    if (format === 'textgrid' || format === 'eaf')
      Object.assign(params, {
        tier_name: o.tier_name,
        phone_tier: o.phone_tier,
        phone_label: o.phone_label,
      });
    if (format === 'vtt' || format === 'srt')
      Object.assign(params, {
        min_segment_duration: o.min_segment_duration,
        words_per_line: o.words_per_line,
        timestamps: o.timestamps,
      });
    if (format === 'csv') Object.assign(params, { separator: o.separator, headers: o.headers });
    mutation.mutate({
      format,
      options: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
    });
  };
  return (
    <div className="space-y-4">
      <SelectField
        label={t('export.format')}
        value={format}
        onChange={(e) => setFormat(e.target.value as Format)}
      >
        {FILE_EXPORT_FORMATS.map((f) => (
          <option key={f} value={f}>
            {t(`export.formats.${f}`)}
          </option>
        ))}
      </SelectField>
      {format === 'json' && (
        <div className="space-y-2">
          <Checkbox
            label={t('export.json.metrics')}
            checked={o.include_metrics}
            onChange={(e) => set('include_metrics', e.target.checked)}
          />
          <Checkbox
            label={t('export.json.audio')}
            checked={o.include_audio}
            onChange={(e) => set('include_audio', e.target.checked)}
          />
          <Checkbox
            label={t('export.json.pretty')}
            checked={o.pretty}
            onChange={(e) => set('pretty', e.target.checked)}
          />
        </div>
      )}
      {(format === 'textgrid' || format === 'eaf') && (
        <div className="space-y-3">
          <InputField
            label={t('export.textgrid.tier')}
            value={o.tier_name}
            dir="ltr"
            onChange={(e) => set('tier_name', e.target.value)}
          />
          <Checkbox
            label={t('export.textgrid.phones')}
            checked={o.phone_tier}
            onChange={(e) => set('phone_tier', e.target.checked)}
          />
          {o.phone_tier && (
            <SelectField
              label={t('export.textgrid.phoneLabel')}
              value={o.phone_label}
              onChange={(e) => set('phone_label', e.target.value as 'ipa' | 'model')}
            >
              <option value="ipa">{t('export.textgrid.phoneLabels.ipa')}</option>
              <option value="model">{t('export.textgrid.phoneLabels.model')}</option>
            </SelectField>
          )}
        </div>
      )}
      {(format === 'vtt' || format === 'srt') && (
        <div className="grid gap-3 sm:grid-cols-2">
          <InputField
            label={t('export.subtitles.minDuration')}
            type="number"
            min={0}
            max={30}
            step={0.1}
            value={o.min_segment_duration}
            onChange={(e) => set('min_segment_duration', e.target.value)}
          />
          <InputField
            label={t('export.subtitles.wordsPerLine')}
            type="number"
            min={1}
            max={50}
            value={o.words_per_line}
            onChange={(e) => set('words_per_line', e.target.value)}
          />
          <div className="sm:col-span-2">
            <Checkbox
              label={t('export.subtitles.timestamps')}
              checked={o.timestamps}
              onChange={(e) => set('timestamps', e.target.checked)}
            />
          </div>
        </div>
      )}
      {format === 'csv' && (
        <div className="space-y-3">
          <SelectField
            label={t('export.csv.separator')}
            value={o.separator}
            onChange={(e) => set('separator', e.target.value)}
          >
            <option value="comma">{t('export.csv.comma')}</option>
            <option value="semicolon">{t('export.csv.semicolon')}</option>
            <option value="tab">{t('export.csv.tab')}</option>
          </SelectField>
          <Checkbox
            label={t('export.csv.headers')}
            checked={o.headers}
            onChange={(e) => set('headers', e.target.checked)}
          />
        </div>
      )}
      <Button onClick={download} loading={mutation.isPending}>
        {mutation.isPending ? t('export.exporting') : t('export.download')}
      </Button>
    </div>
  );
}

function VideoExport({ id, baseName, hasVideo }: { id: string; baseName: string; hasVideo: boolean }) {
  const { t } = useTranslation();
  const [resolution, setResolution] = useState<'sd' | 'hd' | 'fullhd'>('fullhd');
  const [position, setPosition] = useState<'bottom' | 'top' | 'center'>('bottom');
  const [fontSize, setFontSize] = useState('');
  const [processed, setProcessed] = useState(false);
  const [waveform, setWaveform] = useState(true);
  const [requested, setRequested] = useState(false);
  // A video rendered before (another visit, another tab) is found again with its download button: the
  // detail says there is one. Without one, nothing is asked (the server would answer 404).
  const status = useVideo(id, hasVideo || requested);
  const start = useRequestVideo(id, {
    onSuccess: () => setRequested(true),
    onError: (e) => toast.error(e.message),
  });
  const render = () =>
    start.mutate({
      resolution,
      position,
      show_processed_text: processed,
      show_waveform: waveform,
      ...(fontSize ? { font_size: Number(fontSize) } : {}),
    });
  const download = useDownloadVideo(id, {
    onSuccess: (blob) => saveBlob(blob, `${baseName}.mp4`),
    onError: (e) => toast.error(e.message),
  });
  const v = status.data;
  const busy = v && (v.status === 'queued' || v.status === 'processing');
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label={t('export.video.resolution')}
          value={resolution}
          onChange={(e) => setResolution(e.target.value as typeof resolution)}
        >
          <option value="sd">SD 854×480</option>
          <option value="hd">HD 1280×720</option>
          <option value="fullhd">Full HD 1920×1080</option>
        </SelectField>
        <SelectField
          label={t('export.video.position')}
          value={position}
          onChange={(e) => setPosition(e.target.value as typeof position)}
        >
          <option value="bottom">{t('export.video.bottom')}</option>
          <option value="top">{t('export.video.top')}</option>
          <option value="center">{t('export.video.center')}</option>
        </SelectField>
        <InputField
          label={t('export.video.fontSize')}
          type="number"
          min={12}
          max={160}
          value={fontSize}
          placeholder={t('export.video.auto')}
          onChange={(e) => setFontSize(e.target.value)}
        />
      </div>
      <Checkbox
        label={t('export.video.processed')}
        checked={processed}
        onChange={(e) => setProcessed(e.target.checked)}
      />
      <Checkbox
        label={t('export.video.waveform')}
        checked={waveform}
        onChange={(e) => setWaveform(e.target.checked)}
      />
      {v && (
        <p className="text-sm text-muted" data-testid="video-status">
          {t(`export.video.status.${v.status}`, { progress: v.progress })}
          {v.status === 'completed' &&
            v.file_size !== null &&
            `${t('common.separator')}${formatBytes(v.file_size)}`}
          {v.error && `${t('common.separator')}${v.error.detail}`}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          onClick={render}
          loading={start.isPending || Boolean(busy)}
          variant={v?.status === 'completed' ? 'secondary' : 'primary'}
        >
          {t('export.video.render')}
        </Button>
        {v?.status === 'completed' && (
          <Button onClick={() => download.mutate()} loading={download.isPending}>
            {t('export.video.download')}
          </Button>
        )}
      </div>
    </div>
  );
}

/** The read-along page and the EPUB: the text read aloud with each word highlighted, for readers. */
function ReaderExport({ id, baseName }: { id: string; baseName: string }) {
  const { t } = useTranslation();
  const mutation = useExportFile(id, {
    onSuccess: (blob, { format }) => {
      saveBlob(blob, `${baseName}.${EXTENSIONS[format as 'readalong' | 'epub']}`);
      toast.success(t('export.done'));
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <div className="space-y-4">
      <p className="text-sm text-muted">{t('export.readers.body')}</p>
      <div className="flex flex-wrap gap-2">
        {(['readalong', 'epub'] as const).map((format) => (
          <Button
            key={format}
            variant="secondary"
            onClick={() => mutation.mutate({ format, options: {} })}
            loading={mutation.isPending && mutation.variables?.format === format}
            data-testid={`download-${format}`}
          >
            {t(`export.readers.${format}`)}
          </Button>
        ))}
      </div>
      <p className="text-xs text-muted">{t('export.readers.note')}</p>
    </div>
  );
}

export function ExportPanel({ id, title, hasVideo }: { id: string; title: string; hasVideo: boolean }) {
  const { t } = useTranslation();
  const baseName = title.replace(/[\\/:*?"<>|]+/g, '_').slice(0, 80) || 'alignment';
  return (
    <div className="grid min-w-0 gap-6 lg:grid-cols-2">
      <Card className="min-w-0">
        <CardTitle>{t('export.files')}</CardTitle>
        <FileExport id={id} baseName={baseName} />
      </Card>
      <div className="grid min-w-0 gap-6">
        <Card className="min-w-0">
          <CardTitle>{t('export.readers.title')}</CardTitle>
          <ReaderExport id={id} baseName={baseName} />
        </Card>
        <Card className="min-w-0">
          <CardTitle>{t('export.video.title')}</CardTitle>
          <VideoExport id={id} baseName={baseName} hasVideo={hasVideo} />
        </Card>
      </div>
    </div>
  );
}
