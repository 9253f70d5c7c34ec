// Numbers and dates in the interface language's conventions (Intl). Arabic uses Arabic-Indic digits.
import { i18n, intlLocale } from './i18n.ts';

function locale(): string {
  return intlLocale(i18n.language || 'ar');
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(locale(), options).format(value);
}

export function formatPercent(fraction: number): string {
  return new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 1 }).format(fraction);
}

export function formatDate(iso: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'long' }): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale(), options).format(date);
}

export function formatDateTime(iso: string): string {
  return formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Seconds as a short duration, e.g. "1 h 05 min" or "4 min 12 s", with localised digits. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const unit = (value: number, u: 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(locale(), { style: 'unit', unit: u, unitDisplay: 'narrow' }).format(value);
  if (h > 0) return `${unit(h, 'hour')} ${unit(m, 'minute')}`;
  if (m > 0) return `${unit(m, 'minute')} ${unit(sec, 'second')}`;
  return unit(sec, 'second');
}

/** A file's size: megabytes from 1 MB, kilobytes below (a 31 KB file is not "0 MB"), bytes under 1 KB. */
export function formatBytes(bytes: number): string {
  const kb = bytes / 1024;
  const mb = kb / 1024;
  const [value, unit, digits] =
    mb >= 0.95 ? [mb, 'megabyte', 1] : bytes >= 1024 ? [kb, 'kilobyte', 0] : [bytes, 'byte', 0];
  return new Intl.NumberFormat(locale(), {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: digits,
  }).format(value);
}

const fixed = (x: number, digits: number) =>
  formatNumber(x, { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * Seconds with their unit in the interface language (0.487 s, 0,487 s, ٠٫٤٨٧ ث): durations and the
 * ranges a person reads; clock timestamps (formatClock) stay in Western digits.
 */
export function formatSeconds(seconds: number, digits = 3): string {
  return i18n.t('units.seconds', { value: fixed(seconds, digits) });
}

/** A range of seconds, "0.990–1.300 s" in the interface language's digits. */
export function formatSecondsRange(start: number, end: number, digits = 3): string {
  return i18n.t('units.seconds', { value: `${fixed(start, digits)}–${fixed(end, digits)}` });
}
