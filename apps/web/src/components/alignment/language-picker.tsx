// A combobox for the alignment language: type a name (in the interface language, in English or the
// language's own) or a code (ISO 639-1 or 639-3) and pick from the matches; the value is always the
// ISO 639-3 code. ARIA 1.2 combobox pattern: focus stays in the input, arrows move the active option.
import { useEffect, useId, useMemo, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguages } from '../../lib/api/get-languages.ts';
import { languageOptions, resolveLanguageText, searchLanguages } from '../../lib/language-search.ts';
import type { LanguageOption } from '../../lib/language-search.ts';
import { Sep } from '../ui/separator.tsx';

interface LanguagePickerProps {
  label: string;
  /** ISO 639-3 code, or '' while nothing is chosen. */
  value: string;
  onChange: (code: string) => void;
  error?: string | null;
}

function optionText(o: LanguageOption, sep: string): string {
  return o.autonym && o.autonym !== o.label ? `${o.label}${sep}${o.autonym}` : o.label;
}

export function LanguagePicker({ label, value, onChange, error }: LanguagePickerProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const languages = useLanguages();
  const options = useMemo(
    () => languageOptions(languages.data?.results ?? [], i18n.language),
    [languages.data, i18n.language],
  );
  const selected = options.find((o) => o.code === value) ?? null;
  // A name typed and left before the list arrived (a slow network, a busy server) is kept as typed; it is
  // chosen once the list is in, rather than refused at Start as a language nobody has.
  useEffect(() => {
    if (!value || options.length === 0 || options.some((o) => o.code === value)) return;
    const late = resolveLanguageText(options, value);
    if (late) onChange(late.code);
  }, [options, value, onChange]);
  // What is typed; null while the field shows the chosen language.
  const [query, setQuery] = useState<string | null>(null);
  // What the field showed when it was entered, kept while it has the focus and nothing is typed: the list
  // arriving meanwhile would turn "ara" into "Arabic" under the selection focusing made, and the name typed
  // next would be appended to it ("ArabicEnglish") instead of replacing it.
  const [entered, setEntered] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const matches = useMemo(() => searchLanguages(options, query ?? ''), [options, query]);
  const shown = query ?? entered ?? (selected ? selected.label : value);

  const choose = (o: LanguageOption) => {
    onChange(o.code);
    setQuery(null);
    setEntered(null);
    setOpen(false);
  };
  const commit = () => {
    // Leaving the field with an exact code or name chooses it; anything else is kept for the error.
    if (query === null) return;
    const exact = resolveLanguageText(options, query);
    if (exact) choose(exact);
    else {
      onChange(query.trim());
      setOpen(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setOpen(true);
      else if (matches.length)
        setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : -1) + matches.length) % matches.length);
    } else if (e.key === 'Enter') {
      // Enter picks the active option, or takes what is typed; it never submits the form around
      // (which would start an alignment and spend a unit of quota).
      e.preventDefault();
      if (open && matches[active]) choose(matches[active]);
      else commit();
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
    }
  };

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const listId = `${id}-list`;
  return (
    <div className="relative space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-fg">
        {label}
      </label>
      <input
        id={id}
        role="combobox"
        aria-expanded={open && matches.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && matches[active] ? `${listId}-${matches[active].code}` : undefined}
        aria-describedby={error ? errorId : hintId}
        aria-invalid={Boolean(error)}
        autoComplete="off"
        spellCheck={false}
        dir="auto"
        value={shown}
        onFocus={(e) => {
          setEntered(e.currentTarget.value);
          e.currentTarget.select();
        }}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onBlur={() => {
          setEntered(null);
          commit();
        }}
        onKeyDown={onKeyDown}
        className="h-10 w-full rounded-lg border border-border bg-surface px-3 py-2 text-fg placeholder:text-muted/70 focus:border-accent focus:outline-none focus:ring-2 focus:ring-ring/30 aria-[invalid=true]:border-danger"
      />
      {open && matches.length > 0 && (
        <ul
          id={listId}
          role="listbox"
          aria-label={label}
          className="absolute inset-x-0 z-20 mt-1 max-h-72 overflow-y-auto rounded-lg border border-border bg-surface py-1 shadow-lg"
        >
          {matches.map((o, i) => (
            <li
              key={o.code}
              id={`${listId}-${o.code}`}
              role="option"
              aria-selected={i === active}
              // mousedown, not click: the input's blur would otherwise close the list first.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(o);
              }}
              onMouseEnter={() => setActive(i)}
              className={`flex cursor-pointer items-center justify-between gap-3 px-3 py-2 text-sm ${
                i === active ? 'bg-accent-soft text-fg' : 'text-fg'
              }`}
            >
              <bdi>{optionText(o, t('common.separator'))}</bdi>
              <span className="shrink-0 font-mono text-xs text-muted" dir="ltr">
                {o.iso1 ? (
                  <>
                    {o.iso1}
                    <Sep />
                    {o.code}
                  </>
                ) : (
                  o.code
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : (
        <p id={hintId} className="text-xs text-muted" data-testid="language-hint">
          {selected ? (
            <>
              <span dir="ltr" className="font-mono">
                {selected.code}
              </span>
              {selected.nativeModel && (
                <>
                  <Sep />
                  {t('upload.language.native')}
                </>
              )}
            </>
          ) : languages.isError && !languages.data ? (
            // The list could not be had after its retries: say so, and let the user ask again rather than
            // leave a field that can never take a language until the page is reloaded.
            <>
              {t('upload.language.unavailable')}{' '}
              <button
                type="button"
                className="font-medium text-accent underline underline-offset-2"
                onClick={() => void languages.refetch()}
              >
                {t('upload.language.reload')}
              </button>
            </>
          ) : (
            t('upload.language.hint', { count: languages.data?.count ?? 0 })
          )}
        </p>
      )}
    </div>
  );
}
