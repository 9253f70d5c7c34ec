import type { ReactNode } from 'react';

/** Long-form text: paragraphs are separated by blank lines in the messages. */
export function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n\n+/).map((p, i) => (
        <p key={i} className="mt-3 leading-relaxed text-muted">
          {p}
        </p>
      ))}
    </>
  );
}

export function ProsePage({
  title,
  updated,
  children,
}: {
  title: string;
  updated?: string;
  children: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
      {updated && <p className="mt-2 text-sm text-muted">{updated}</p>}
      <div className="mt-8 space-y-10">{children}</div>
    </article>
  );
}

export function ProseSection({ id, title, children }: { id?: string; title: string; children: ReactNode }) {
  return (
    <section id={id} className="scroll-mt-24">
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}
