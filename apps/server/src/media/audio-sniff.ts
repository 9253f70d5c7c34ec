// Recognises the four accepted audio containers by their first bytes, whatever the file is called or
// the client claims its type is. ffprobe then has to agree (see probe-upload.ts).
export type SniffedFormat = 'wav' | 'mp3' | 'm4a' | 'ogg';

export const SNIFF_BYTES = 16;

const ascii = (b: Uint8Array, at: number, s: string): boolean =>
  b.length >= at + s.length && [...s].every((c, i) => b[at + i] === c.charCodeAt(0));

export function sniffAudio(head: Uint8Array): SniffedFormat | null {
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return 'wav';
  if (ascii(head, 0, 'OggS')) return 'ogg';
  if (ascii(head, 4, 'ftyp')) return 'm4a';
  if (ascii(head, 0, 'ID3')) return 'mp3';
  // An MPEG audio frame header: 11 sync bits, then a version and a layer that are not "reserved".
  // Layer bits 00 are ADTS AAC, which is not one of the accepted formats.
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) {
    const version = (head[1]! >> 3) & 0x03;
    const layer = (head[1]! >> 1) & 0x03;
    if (version !== 0x01 && layer !== 0x00) return 'mp3';
  }
  return null;
}

export const AUDIO_MIME: Record<SniffedFormat, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
};
