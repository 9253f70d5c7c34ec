// The MMS forced-alignment model's output vocabulary. Written from the checkpoint's tokenizer
// (MahmoudAshraf/mms-300m-1130-forced-aligner, the source of the onnx-community export): four specials,
// then the 27 romanised letters in torchaudio's MMS_FA label order. There is no word separator: words
// are told apart only by the text we give the aligner. A pulled model's vocab.json is checked against it.
import { existsSync, readFileSync } from 'node:fs';

export const MMS_VOCAB: readonly string[] = [
  '<blank>',
  '<pad>',
  '</s>',
  '<unk>',
  ...'aienoutsrmkldghybpwcvjzf'.split(''),
  "'",
  'q',
  'x',
];

export const BLANK = 0;
/** First letter id; ids below it are the blank and specials the aligner never targets. */
export const FIRST_LETTER = 4;

const LETTER_ID = new Map<string, number>(MMS_VOCAB.map((t, i) => [t, i]));

export function letterId(ch: string): number | undefined {
  const id = LETTER_ID.get(ch);
  return id !== undefined && id >= FIRST_LETTER ? id : undefined;
}

/** Reads a vocab.json ({token: id}) and checks it matches the built-in table, so a different export fails loudly. */
export function checkVocabFile(path: string): void {
  if (!existsSync(path)) return;
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>;
  for (let id = 0; id < MMS_VOCAB.length; id++) {
    const tok = MMS_VOCAB[id]!;
    if (raw[tok] !== id) {
      throw new Error(
        `${path}: token ${JSON.stringify(tok)} has id ${String(raw[tok])}, expected ${id}; not the MMS forced-aligner vocabulary`,
      );
    }
  }
}
