// Public entry `@tazamun/aligner/backends`: the back-end registry (which engines this installation can
// run, the languages with a native model) and the language table.
export { HMM_NATIVE_LANGUAGES, availableEngines } from '../models/registry.ts';
export type { EngineAvailability } from '../models/registry.ts';
export { listLanguages, resolveLanguage } from '../text/languages.ts';
export type { LanguageInfo } from '../text/languages.ts';
