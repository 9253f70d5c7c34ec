// Public entry `@tazamun/aligner/corpus`: a folder or archive in the Montreal Forced Aligner's layout
// (recordings beside transcripts of the same base name) and the transcript of a one-tier TextGrid.
export { isTextGridPath, pairCorpus } from '../corpus/corpus-layout.ts';
export { textGridTranscript } from '../formats/textgrid-reader.ts';
export type { TextGridProblem } from '../formats/textgrid-reader.ts';
export type { CorpusLayout, CorpusPair, CorpusSkipReason } from '../corpus/corpus-layout.ts';
