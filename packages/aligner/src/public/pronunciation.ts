// Public entry `@tazamun/aligner/pronunciation`: how the engine would pronounce a text (the lexicon
// page's preview) and the IPA tools that check a user's own pronunciations.
export { previewPronunciations } from '../text/pronunciation-preview.ts';
export type { PreviewWord } from '../text/pronunciation-preview.ts';
export { ipaToPhones, pronunciationPhones, unknownIpaSymbols } from '../text/g2p.ts';
export { ipaToModelPhones } from '../acoustic/hmm/phone-map.ts';
