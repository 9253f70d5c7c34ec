// Transcript files: strict UTF-8 (a BOM is dropped), line ends normalised to LF.
export function decodeTranscript(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return cleanTranscriptText(text);
  } catch {
    return null;
  }
}

export function cleanTranscriptText(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}
