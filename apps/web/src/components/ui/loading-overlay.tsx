import { Spinner } from './spinner.tsx';

/** Full-screen cover shown until the interface language and the session are ready. */
export function LoadingOverlay({ label }: { label: string }) {
  return (
    <div
      className="fixed inset-0 z-[100] flex flex-col items-center justify-center gap-4 bg-bg text-accent"
      data-testid="loading-overlay"
    >
      <Spinner size={36} label={label} />
      <p className="text-sm text-muted">{label}</p>
    </div>
  );
}
