// What an alignment runs on, decided once by one rule: the language code accepted for the input kind and
// engine asked for (text/languages.ts `acceptLanguage`), and the back-end that aligns it, with the reason
// `auto` chose it. align() plans once at its entry and hands the accepted language down (text rules,
// eSpeak); the upload route plans with the same function to refuse, before any cost, what this
// installation cannot align.
import type { Backend, EngineName, InputKind } from '@tazamun/contracts/alignment-options';
import { availableEngines, chooseEngine } from './models/registry.ts';
import { acceptLanguage } from './text/languages.ts';
import type { AcceptedLanguage } from './text/languages.ts';

export interface AlignmentPlan {
  language: AcceptedLanguage;
  inputKind: InputKind;
  /** the engine asked for (`auto` included) */
  engine: EngineName;
  /** what aligns it */
  backend: Backend;
  /** why `auto` chose mms, for the first of the result's warnings */
  notes: string[];
}

/**
 * Which back-end aligns this transcript. IPA is read by hmm (acceptLanguage refuses IPA on mms). Written
 * text in a language with no pronunciation route on hmm is read by mms (acceptLanguage refused it for
 * hmm); otherwise chooseEngine decides: hmm where it has a native model, mms elsewhere when installed.
 * Throws the engine's input errors (unknown_language, unsupported_option).
 */
export function planAlignment(
  code: string,
  options: { inputKind?: InputKind; engine?: EngineName } = {},
): AlignmentPlan {
  const inputKind = options.inputKind ?? 'orthography';
  const engine = options.engine ?? 'auto';
  // Written text on hmm needs a language of the table; IPA and MMS accept every ISO 639-3 code.
  const language = acceptLanguage(code, { inputKind, engine });
  const plan = { language, inputKind, engine };
  if (inputKind === 'ipa') return { ...plan, backend: 'hmm', notes: [] };
  if (!language.info) {
    // Only MMS reads this language: without the model, the user is told to pull it.
    const notes = engine === 'auto' ? [`language "${language.iso3}" has no hmm route: aligned with mms`] : [];
    return { ...plan, backend: 'mms', notes };
  }
  const choice = chooseEngine(engine, language.iso3);
  return {
    ...plan,
    backend: choice.engine,
    notes: choice.engine === 'mms' && engine === 'auto' ? [choice.reason] : [],
  };
}

/** Whether this installation can run the back-end (hmm ships with npm; mms once its model is pulled). */
export function backendInstalled(backend: Backend): boolean {
  return availableEngines().find((e) => e.id === backend)?.available ?? false;
}
