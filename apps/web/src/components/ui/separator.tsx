import { Children, Fragment } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The separator between the parts of one line of facts (language · file · duration). Its text comes
 * from the locale: " · " in English and French; in Arabic a middle dot beside Arabic-Indic digits reads
 * as the digit zero (٠), so Arabic separates with its comma.
 */
export function Sep() {
  const { t } = useTranslation();
  return <>{t('common.separator')}</>;
}

/** A line of facts: its parts (each one child; false and null ones are left out) with Sep between them. */
export function Facts({ children }: { children: ReactNode }) {
  return (
    <>
      {Children.toArray(children).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <Sep />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
