// An English HMM back-end and the units of a transcript as the engine makes them (normalised, numbers
// spelled out, fillers kept), for tests that search windows of joined eval recordings directly.
import { HmmBackend } from '../src/acoustic/hmm/backend.ts';
import type { HmmSearch } from '../src/acoustic/hmm/decoder.ts';
import { arabicPronunciationLattice, espeakIpa } from '../src/text/g2p.ts';
import { normalizeTranscript } from '../src/text/normalize.ts';

export async function englishUnits(decoder: HmmSearch, text: string) {
  const backend = new HmmBackend(decoder, { espeakIpa, arabicLattice: arabicPronunciationLattice });
  const norm = normalizeTranscript(text, 'eng', {
    normalize: true,
    numbersToWords: true,
    removeFillers: false,
    inputKind: 'orthography',
  });
  const { units } = await backend.pronounce(norm.tokens, 'eng', 'orthography');
  return { backend, units };
}
