// Public entry `@tazamun/aligner/engine`: the one alignment call (audio + transcript -> the platform's
// result) and what decides what it runs on. Other packages import the aligner only through the entries
// of this folder (package.json `exports`); nothing inside the package imports them.
export { align } from '../engine.ts';
export type { AlignOptions } from '../engine.ts';
export { backendInstalled, planAlignment } from '../plan.ts';
export type { AlignmentPlan } from '../plan.ts';
export { EngineError } from '../errors.ts';
export type { EngineErrorCode } from '../errors.ts';
