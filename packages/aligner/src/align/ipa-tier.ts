// The phone tier in IPA. The search places the acoustic model's phones (ARPAbet on the English model,
// LIUM labels on the French one); the tier shows the IPA the pronunciation was made from: the user's IPA,
// eSpeak NG's, the Arabic letter rules', or for dictionary words the model labels written in IPA. Where
// one IPA phone became two model phones (ɲ -> N Y) they are one interval; an IPA phone the model has no
// phone for (ʔ on the English model) is written with the phone it precedes.
import type { PhoneTiming } from '@tazamun/contracts/alignment-result';
import type { PhoneSpan, Unit } from '../acoustic/backend.ts';
import { ipaToModelPhonesTagged, MODEL_PHONE_IPA } from '../acoustic/hmm/phone-map.ts';
import type { TaggedPhone } from '../acoustic/hmm/phone-map.ts';

type Family = 'en' | 'fr';

const sameModels = (tags: TaggedPhone[], placed: PhoneSpan[], at: number): boolean =>
  tags.every((t, k) => placed[at + k]?.phone === t.model);

/** IPA tags for the phones placed for one unit, in order (one tag per placed phone). */
export function tagPlacedPhones(unit: Unit, placed: PhoneSpan[], family: Family): TaggedPhone[] {
  const fallback = (from: number, group0: number): TaggedPhone[] =>
    placed.slice(from).map((p, k) => ({
      model: p.phone,
      ipa: MODEL_PHONE_IPA[family][p.phone] ?? p.phone,
      group: group0 + k,
    }));
  if (unit.lattice && unit.latticeIpa) {
    const out: TaggedPhone[] = [];
    let at = 0;
    let group = 0;
    unit.latticeIpa.forEach((slot) => {
      // The alternative the search took is the longest one whose model phones come next.
      let pick: TaggedPhone[] | null = null;
      for (const alt of slot) {
        const tags = alt === '' ? [] : ipaToModelPhonesTagged(alt, family);
        if (sameModels(tags, placed, at) && (pick === null || tags.length > pick.length)) pick = tags;
      }
      if (!pick) return;
      const base = group;
      for (const t of pick) out.push({ ...t, group: base + t.group });
      group = base + (pick.length ? pick[pick.length - 1]!.group + 1 : 0);
      at += pick.length;
    });
    return at === placed.length ? out : [...out, ...fallback(at, group)];
  }
  if (unit.ipa) {
    for (const source of unit.ipa) {
      const tags = ipaToModelPhonesTagged(source, family);
      if (tags.length === placed.length && sameModels(tags, placed, 0)) return tags;
    }
  }
  return fallback(0, 0);
}

/** The word's phone tier: placed model phones merged per IPA phone. */
export function ipaPhones(units: Unit[], spans: { unit: number; phones: PhoneSpan[] }[], family: Family) {
  const out: PhoneTiming[] = [];
  for (const s of spans) {
    const tags = tagPlacedPhones(units[s.unit]!, s.phones, family);
    let k = 0;
    while (k < s.phones.length) {
      const g = tags[k]!.group;
      let e = k + 1;
      while (e < s.phones.length && tags[e]!.group === g) e++;
      const run = s.phones.slice(k, e);
      out.push({
        phone: tags[k]!.ipa,
        model_phone: run.map((p) => p.phone).join(' '),
        start: run[0]!.start,
        end: run[run.length - 1]!.end,
        confidence: clamp01(run.reduce((a, p) => a + p.confidence, 0) / run.length),
      });
      k = e;
    }
  }
  return out;
}

const clamp01 = (x: number): number => Math.max(0, Math.min(1, x));
