// Transcripts as the user sent them (a form field, a text_file part, a file of a batch): strict UTF-8
// for files (a BOM is dropped), line ends normalised to LF, and control characters made harmless. NUL
// is refused by the callers (holdsNul: it is a sign of UTF-16 read as UTF-8, and it came back in words
// and raw in CSV exports); the other C0 and C1 controls (form feed, vertical tab, escape, NEL...) become
// spaces, as white space between words is what a word processor meant by them.

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

export function decodeTranscript(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return cleanTranscriptText(text);
  } catch {
    return null;
  }
}

export function cleanTranscriptText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROLS, ' ');
}

export function holdsNul(text: string): boolean {
  return text.includes('\u0000');
}
