// The adapted models a long-lived thread keeps loaded. Each adapted model is a decoder of its own (its
// Gaussians and transition matrices, tens of megabytes), cached by decoder.ts like the base models. A
// server thread aligns for every project that has a model, so without a bound it would keep one decoder
// per adapted model it ever used; it keeps the most recently used few and lets the others go.
import { unloadDecoder } from '../decoder.ts';

/** Adapted models' decoders a thread keeps loaded at most (the base models are not counted). */
export const MAX_ADAPTED_DECODERS = 3;

/** Ids of the adapted models loaded in this thread, least recently used first. */
const recent: string[] = [];

/** Notes that the adapted model `id` is in use; unloads the least recently used beyond the bound. */
export function useAdaptedDecoder(id: string): void {
  const at = recent.indexOf(id);
  if (at >= 0) recent.splice(at, 1);
  recent.push(id);
  while (recent.length > MAX_ADAPTED_DECODERS) unloadDecoder(recent.shift()!);
}

/** The adapted models this thread keeps loaded, least recently used first (tests, diagnostics). */
export function adaptedDecoderIds(): readonly string[] {
  return [...recent];
}
