import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { CheckIcon, CopyIcon } from '../../../components/ui/icons.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useShareAlignment, useUnshareAlignment } from '../api/alignments-api.ts';

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Copy the transcript, and share a read-only link (or stop sharing). */
export function ShareControls({
  id,
  shared,
  transcript,
}: {
  id: string;
  shared: boolean;
  transcript: string;
}) {
  const { t } = useTranslation();
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const share = useShareAlignment(id, {
    onSuccess: (r) => {
      const url = new URL(r.url, window.location.origin);
      // The server knows its public URL; the link is shown on this origin's /share/ route.
      setLink(`${window.location.origin}${url.pathname}`);
    },
    onError: (e) => toast.error(e.message),
  });
  const unshare = useUnshareAlignment(id, {
    onSuccess: () => {
      setLink(null);
      toast.success(t('share.stopped'));
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        size="sm"
        variant="secondary"
        onClick={() =>
          void copy(transcript).then((ok) =>
            ok ? toast.success(t('share.copiedText')) : toast.error(t('share.copyFailed')),
          )
        }
      >
        <CopyIcon size={16} /> {t('share.copyText')}
      </Button>
      <Button size="sm" variant="secondary" onClick={() => share.mutate()} loading={share.isPending}>
        {t('share.share')}
      </Button>
      {(shared || link) && (
        <Button size="sm" variant="ghost" onClick={() => unshare.mutate()} loading={unshare.isPending}>
          {t('share.stop')}
        </Button>
      )}
      {link && (
        <div className="flex w-full items-center gap-2 rounded-lg border border-border bg-surface-2 px-3 py-2 text-sm">
          <input
            readOnly
            value={link}
            dir="ltr"
            className="min-w-0 flex-1 bg-transparent outline-none"
            aria-label={t('share.link')}
            data-testid="share-link"
          />
          <button
            type="button"
            className="text-accent"
            aria-label={t('about.copy')}
            onClick={() =>
              void copy(link).then((ok) => {
                setCopied(ok);
                setTimeout(() => setCopied(false), 2000);
              })
            }
          >
            {copied ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
          </button>
        </div>
      )}
    </div>
  );
}
