// Public entry `@tazamun/aligner/formats`: the exports of a result (JSON, TextGrid, WebVTT, SRT, CSV,
// ELAN, read-along page, EPUB), the CSV writer with its formula guard, and the platform JSON reader.
export { EXPORT_FORMATS, MEDIA_FORMATS, exportResult, isExportFormat } from '../formats/export.ts';
export type { ExportFormat, ExportOptions, ExportedFile } from '../formats/export.ts';
export { portableMedia } from '../formats/export-media.ts';
export { csvRows, protectFormula, unprotectFormula } from '../formats/csv.ts';
export type { Cell } from '../formats/csv.ts';
export { stripBidiControls } from '../formats/common.ts';
export { parseAlignmentJson, toPlatformJson } from '../formats/json.ts';
