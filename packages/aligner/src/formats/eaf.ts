// ELAN Annotation Format (EAF 3.0): TIME_ORDER with one TIME_SLOT per distinct time (milliseconds),
// a word tier and a phone tier of ALIGNABLE_ANNOTATIONs, one linguistic type per tier.
// Words not found in the audio have no time and are not written (they stay in the platform JSON).
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { stripBidiControls, timedPhones, timedWords, toMs } from './common.ts';

export interface EafOptions {
  wordTierName: string;
  phoneTierName: string;
  phones: boolean;
  phoneLabel: 'ipa' | 'model';
  /**
   * URL of the recording for the header's MEDIA_DESCRIPTOR (e.g. "file:///path/audio.wav", or the file
   * name); no descriptor when empty, and ELAN then opens the annotations without their recording
   */
  mediaUrl: string;
  /** where the recording lies relative to the .eaf ("./audio.wav"): ELAN looks there when mediaUrl is not found */
  relativeMediaUrl: string;
  mimeType: string;
  author: string;
  /** ISO 8601 date of the document; defaults to now */
  date: string | null;
}

export const DEFAULT_EAF_OPTIONS: EafOptions = {
  wordTierName: 'words',
  phoneTierName: 'phones',
  phones: true,
  phoneLabel: 'ipa',
  mediaUrl: '',
  relativeMediaUrl: '',
  mimeType: 'audio/x-wav',
  author: 'Tazamun',
  date: null,
};

// Characters XML 1.0 forbids (controls other than tab/LF/CR, U+FFFE/FFFF, lone surrogates) are dropped.
const XML_INVALID =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlEscape(s: string): string {
  return stripBidiControls(s)
    .replace(XML_INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

interface Ann {
  start: number;
  end: number;
  value: string;
}

export function toEaf(result: AlignmentResult, options: Partial<EafOptions> = {}): string {
  const o = { ...DEFAULT_EAF_OPTIONS, ...options };
  const words: Ann[] = timedWords(result)
    .map((w) => ({ start: toMs(w.start), end: toMs(w.end), value: w.word.word }))
    .filter((a) => a.end > a.start);
  const phones: Ann[] = o.phones
    ? timedPhones(result)
        .map((p) => ({
          start: toMs(p.start),
          end: toMs(p.end),
          value: o.phoneLabel === 'ipa' ? p.phone.phone : p.phone.model_phone,
        }))
        .filter((a) => a.end > a.start)
    : [];
  const times = [...new Set([...words, ...phones].flatMap((a) => [a.start, a.end]))].sort((a, b) => a - b);
  const slotId = new Map(times.map((t, i) => [t, `ts${i + 1}`]));

  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(
    `<ANNOTATION_DOCUMENT AUTHOR="${xmlEscape(o.author)}" DATE="${xmlEscape(o.date ?? new Date().toISOString())}" ` +
      'FORMAT="3.0" VERSION="3.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
      'xsi:noNamespaceSchemaLocation="http://www.mpi.nl/tools/elan/EAFv3.0.xsd">',
  );
  out.push('    <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds">');
  if (o.mediaUrl) {
    const relative = o.relativeMediaUrl ? ` RELATIVE_MEDIA_URL="${xmlEscape(o.relativeMediaUrl)}"` : '';
    out.push(
      `        <MEDIA_DESCRIPTOR MEDIA_URL="${xmlEscape(o.mediaUrl)}" MIME_TYPE="${xmlEscape(o.mimeType)}"${relative}/>`,
    );
  }
  out.push(`        <PROPERTY NAME="lastUsedAnnotationId">${words.length + phones.length}</PROPERTY>`);
  if (result.revision) {
    out.push(`        <PROPERTY NAME="tazamun:revision">${result.revision.number}</PROPERTY>`);
    out.push(`        <PROPERTY NAME="tazamun:hand_corrected">${result.revision.hand_corrected}</PROPERTY>`);
  }
  // The result's verdict travels with the file, so an ELAN user sees a mismatched transcript too.
  out.push(`        <PROPERTY NAME="tazamun:verdict">${xmlEscape(result.quality.verdict)}</PROPERTY>`);
  for (const r of result.quality.reasons)
    out.push(`        <PROPERTY NAME="tazamun:reason">${xmlEscape(r.message)}</PROPERTY>`);
  out.push('    </HEADER>');
  if (times.length === 0) out.push('    <TIME_ORDER/>');
  else {
    out.push('    <TIME_ORDER>');
    for (const t of times) out.push(`        <TIME_SLOT TIME_SLOT_ID="${slotId.get(t)}" TIME_VALUE="${t}"/>`);
    out.push('    </TIME_ORDER>');
  }
  let annId = 0;
  const tier = (id: string, type: string, anns: Ann[]): void => {
    if (anns.length === 0) {
      out.push(`    <TIER LINGUISTIC_TYPE_REF="${xmlEscape(type)}" TIER_ID="${xmlEscape(id)}"/>`);
      return;
    }
    out.push(`    <TIER LINGUISTIC_TYPE_REF="${xmlEscape(type)}" TIER_ID="${xmlEscape(id)}">`);
    for (const a of anns) {
      annId++;
      out.push('        <ANNOTATION>');
      out.push(
        `            <ALIGNABLE_ANNOTATION ANNOTATION_ID="a${annId}" TIME_SLOT_REF1="${slotId.get(a.start)}" ` +
          `TIME_SLOT_REF2="${slotId.get(a.end)}">`,
      );
      out.push(`                <ANNOTATION_VALUE>${xmlEscape(a.value)}</ANNOTATION_VALUE>`);
      out.push('            </ALIGNABLE_ANNOTATION>');
      out.push('        </ANNOTATION>');
    }
    out.push('    </TIER>');
  };
  tier(o.wordTierName, 'words', words);
  if (o.phones) tier(o.phoneTierName, 'phones', phones);
  out.push(
    '    <LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="words" TIME_ALIGNABLE="true"/>',
  );
  if (o.phones) {
    out.push(
      '    <LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="phones" TIME_ALIGNABLE="true"/>',
    );
  }
  out.push('</ANNOTATION_DOCUMENT>');
  return `${out.join('\n')}\n`;
}
