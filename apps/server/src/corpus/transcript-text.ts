// A batch's transcript from its bytes: strict UTF-8, no NUL, and for a TextGrid the labels of its single
// tier. Pure and bounded by the size of the bytes (the TextGrid reader makes one pass whatever the file
// declares); transcript-thread.ts runs it off the event loop.
import type { ErrorCode } from '@tazamun/contracts/errors';
import { isTextGridPath, textGridTranscript } from '@tazamun/aligner/corpus';
import { decodeTranscript, holdsNul } from '../media/text-decode.ts';

export type TranscriptOutcome = { text: string } | { code: ErrorCode };

export function readTranscript(name: string, bytes: Uint8Array): TranscriptOutcome {
  const text = decodeTranscript(bytes);
  if (text === null) return { code: 'text_encoding_invalid' };
  if (holdsNul(text)) return { code: 'text_control_characters' };
  if (!isTextGridPath(name)) return text.trim() ? { text } : { code: 'text_required' };
  const got = textGridTranscript(text);
  if ('error' in got)
    return { code: got.error === 'malformed' ? 'textgrid_malformed' : 'textgrid_unreadable' };
  return got.text.trim() ? { text: got.text } : { code: 'text_required' };
}
