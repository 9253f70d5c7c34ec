// CSV, RFC 4180: fields quoted when they hold the separator, a double quote, CR or LF (quotes doubled),
// CRLF record ends. Text cells that a spreadsheet would run as a formula (starting with = + - @, or a
// tab / CR) get a leading apostrophe, the OWASP recommendation; numeric cells are written as numbers.
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { decimal, stripBidiControls } from './common.ts';

export interface CsvOptions {
  separator: ',' | ';' | '\t';
  headers: boolean;
  /** one row per word, or one row per phone */
  level: 'words' | 'phones';
}

export const DEFAULT_CSV_OPTIONS: CsvOptions = { separator: ',', headers: true, level: 'words' };

export type Cell = string | number | null;

export function protectFormula(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/** The guard undone, for a file of ours read back (a lexicon export imported again). */
export function unprotectFormula(s: string): string {
  return /^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s;
}

// NUL and the other C0 controls but tab, CR and LF (which quoting carries), and DEL: a spreadsheet
// or a script reading the file has no use for them, and a raw 0x00 ends a C string.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** One CSV field: text cleaned of controls and bidi overrides, formula-guarded, quoted when it must. */
export function csvField(cell: Cell, sep: string): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? decimal(cell) : '';
  const s = protectFormula(stripBidiControls(cell).replace(CONTROLS, ''));
  return s.includes(sep) || /["\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows as CSV text: the one writer of every table Tazamun hands out (exports, summaries). */
export function csvRows(rows: Cell[][], sep: string = ',', eol: '\r\n' | '\n' = '\r\n'): string {
  return rows.map((r) => r.map((c) => csvField(c, sep)).join(sep) + eol).join('');
}

export function toCsv(result: AlignmentResult, options: Partial<CsvOptions> = {}): string {
  const o = { ...DEFAULT_CSV_OPTIONS, ...options };
  const rows: Cell[][] = [];
  if (o.level === 'words') {
    if (o.headers) {
      rows.push([
        'index',
        'word',
        'normalized',
        'start',
        'end',
        'duration',
        'confidence',
        'status',
        'char_start',
        'char_end',
      ]);
    }
    for (const w of result.words) {
      rows.push([
        w.index,
        w.word,
        w.normalized,
        w.start,
        w.end,
        w.duration,
        w.confidence,
        w.status,
        w.char_start,
        w.char_end,
      ]);
    }
  } else {
    if (o.headers)
      rows.push(['word_index', 'word', 'phone', 'model_phone', 'start', 'end', 'duration', 'confidence']);
    for (const w of result.words) {
      for (const p of w.phones) {
        rows.push([
          w.index,
          w.word,
          p.phone,
          p.model_phone,
          p.start,
          p.end,
          p.end - p.start,
          p.confidence ?? null,
        ]);
      }
    }
  }
  return csvRows(rows, o.separator);
}
