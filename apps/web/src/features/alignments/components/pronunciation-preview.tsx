import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PronunciationPreview as Preview } from '@tazamun/contracts/lexicon';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useAddLexiconEntry, usePreviewPronunciations } from '../api/lexicon-api.ts';

/**
 * The words of the transcript the aligner would pronounce by rule or by eSpeak, with their IPA, each
 * editable into the user's lexicon (used by the next alignments before the model's dictionary).
 */
export function PronunciationPreview({ language, text }: { language: string; text: string }) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const check = usePreviewPronunciations({
    onSuccess: (p) => {
      setPreview(p);
      setEdits({});
    },
    onError: (e) => toast.error(e.message),
  });
  const save = useAddLexiconEntry({
    onSuccess: (e) => {
      toast.success(t('upload.pronunciation.saved', { word: e.word }));
      setPreview((p) => p && { ...p, words: p.words.filter((w) => w.word !== e.word) });
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <div className="mt-4 space-y-2" data-testid="pronunciation-preview">
      <Button
        type="button"
        size="sm"
        variant="secondary"
        disabled={!text.trim()}
        loading={check.isPending}
        onClick={() => check.mutate({ language, text })}
      >
        {t('upload.pronunciation.check')}
      </Button>
      <Link to="/lexicon" className="ms-3 text-sm text-accent hover:underline">
        {t('upload.pronunciation.lexiconLink')}
      </Link>
      {preview && preview.words.length === 0 && (
        <Alert tone="success">{t('upload.pronunciation.none')}</Alert>
      )}
      {preview && preview.words.length > 0 && (
        <table className="w-full text-sm">
          <caption className="mb-1 text-start text-muted">{t('upload.pronunciation.caption')}</caption>
          <thead>
            <tr>
              <th className="text-start">{t('upload.pronunciation.word')}</th>
              <th className="text-start">{t('upload.pronunciation.source')}</th>
              <th className="text-start">IPA</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {preview.words.map((w) => (
              <tr key={w.word} className="border-t border-border">
                <td className="py-1" dir="auto">
                  {w.word}
                </td>
                <td className="py-1">{t(`upload.pronunciation.sources.${w.source}`)}</td>
                <td className="py-1">
                  <input
                    aria-label={t('upload.pronunciation.ipaOf', { word: w.word })}
                    dir="ltr"
                    className="h-8 w-full rounded-md border border-border bg-surface px-2"
                    value={edits[w.word] ?? w.ipa}
                    onChange={(e) => setEdits((x) => ({ ...x, [w.word]: e.target.value }))}
                  />
                </td>
                <td className="py-1 text-end">
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    onClick={() =>
                      save.mutate({ language, word: w.word, ipa: (edits[w.word] ?? w.ipa).trim() })
                    }
                  >
                    {t('upload.pronunciation.save')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
