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

type Cell = string | number | null;

export function protectFormula(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

function field(cell: Cell, sep: string): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? decimal(cell) : '';
  const s = protectFormula(stripBidiControls(cell));
  return s.includes(sep) || /["\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
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
  return rows.map((r) => r.map((c) => field(c, o.separator)).join(o.separator) + '\r\n').join('');
}
