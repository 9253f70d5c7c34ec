// The phone tier in IPA. The search places the acoustic model's phones (ARPAbet on the English model,
// LIUM labels on the French one, plus the phones an adapted model gained); the tier shows the IPA the
// pronunciation was made from: the user's IPA, eSpeak NG's, the Arabic letter rules', or for dictionary
// words the model labels written in IPA. Where one IPA phone became two model phones (ɲ -> N Y) they are
// one interval.
//
// Honest phones: a phone the model had no phone of its own for (ʕ placed as HH, aː as AA, ɲ as N Y) says
// so (`approximated`, with the stand-in in `model_phone`). An IPA phone the model places nothing for (ʔ on
// the English model) keeps an interval of its own at the onset of the phone it precedes (at the end of
// the word's last phone when none follows), LEAD_SECONDS long at most, with an empty `model_phone`.
import type { PhoneTiming } from '@tazamun/contracts/alignment-result';
import type { PhoneSpan, Unit } from '../acoustic/backend.ts';
import { ipaToModelPhonesTagged, isNative, MODEL_PHONE_IPA, phoneSet } from '../acoustic/hmm/phone-map.ts';
import type { PhoneSet, TaggedPhone } from '../acoustic/hmm/phone-map.ts';

/** The longest interval given to a phone the model did not place (a third of the next phone at most). */
export const LEAD_SECONDS = 0.02;

const sameModels = (tags: TaggedPhone[], placed: PhoneSpan[], at: number): boolean =>
  tags.every((t, k) => placed[at + k]?.phone === t.model);

const asSet = (s: PhoneSet | 'en' | 'fr'): PhoneSet => (typeof s === 'string' ? phoneSet(s) : s);

/** IPA tags for the phones placed for one unit, in order (one tag per placed phone). */
export function tagPlacedPhones(
  unit: Unit,
  placed: PhoneSpan[],
  phones: PhoneSet | 'en' | 'fr',
): TaggedPhone[] {
  const set = asSet(phones);
  const fallback = (from: number, group0: number): TaggedPhone[] =>
    placed.slice(from).map((p, k) => ({
      model: p.phone,
      ipa: set.native[p.phone]?.[0] ?? MODEL_PHONE_IPA[set.family][p.phone] ?? p.phone,
      group: group0 + k,
    }));
  // the IPA written for a set of tags: an alternative that says more (its ʔ) is the one shown
  const ipaLength = (tags: TaggedPhone[]) =>
    tags.reduce((a, t) => a + t.ipa.length + (t.lead?.length ?? 0), 0);
  if (unit.lattice && unit.latticeIpa) {
    const out: TaggedPhone[] = [];
    let at = 0;
    let group = 0;
    // IPA of slots the model places nothing for (a letter read ʔ), shown with the next phone placed
    let carry = '';
    let carryOptional = false;
    unit.latticeIpa.forEach((slot) => {
      // The alternative the search took is the longest one whose model phones come next (among equals,
      // the one whose IPA says most: the glottal stop the model cannot tell from its absence).
      let pick: TaggedPhone[] | null = null;
      let pickAlt = '';
      for (const alt of slot) {
        const tags = alt === '' ? [] : ipaToModelPhonesTagged(alt, set);
        if (!sameModels(tags, placed, at)) continue;
        const better =
          pick === null ||
          tags.length > pick.length ||
          (tags.length === pick.length &&
            (tags.length ? ipaLength(tags) > ipaLength(pick) : alt.length > pickAlt.length));
        if (better) {
          pick = tags;
          pickAlt = alt;
        }
      }
      if (!pick) return;
      if (pick.length === 0) {
        // an optional ʔ (the article's) is said with the vowel after it: it goes where that vowel goes
        if (pickAlt === '' && carryOptional) carry = '';
        else if (pickAlt !== '') {
          carry += pickAlt;
          carryOptional = slot.includes('');
        }
        return;
      }
      const base = group;
      pick.forEach((t, k) =>
        out.push({
          ...t,
          group: base + t.group,
          ...(k === 0 && carry ? { lead: carry + (t.lead ?? '') } : {}),
        }),
      );
      carry = '';
      group = base + pick[pick.length - 1]!.group + 1;
      at += pick.length;
    });
    if (carry && out.length) out[out.length - 1] = { ...out[out.length - 1]!, trail: carry };
    return at === placed.length ? out : [...out, ...fallback(at, group)];
  }
  if (unit.ipa) {
    for (const source of unit.ipa) {
      const tags = ipaToModelPhonesTagged(source, set);
      if (tags.length === placed.length && sameModels(tags, placed, 0)) return tags;
    }
  }
  return fallback(0, 0);
}

/** The word's phone tier: placed model phones merged per IPA phone, with the phones the model did not place. */
export function ipaPhones(
  units: Unit[],
  spans: { unit: number; phones: PhoneSpan[] }[],
  phones: PhoneSet | 'en' | 'fr',
): PhoneTiming[] {
  const set = asSet(phones);
  const out: PhoneTiming[] = [];
  for (const s of spans) {
    const tags = tagPlacedPhones(units[s.unit]!, s.phones, set);
    let k = 0;
    while (k < s.phones.length) {
      const g = tags[k]!.group;
      let e = k + 1;
      while (e < s.phones.length && tags[e]!.group === g) e++;
      const run = s.phones.slice(k, e);
      const models = run.map((p) => p.phone);
      const confidence = clamp01(run.reduce((a, p) => a + p.confidence, 0) / run.length);
      let start = run[0]!.start;
      const end = run[run.length - 1]!.end;
      const lead = tags[k]!.lead;
      if (lead) {
        // at the onset of the phone it belongs to
        const cut = round4(start + Math.min(LEAD_SECONDS, (end - start) / 3));
        out.push({ phone: lead, model_phone: '', start, end: cut, approximated: true });
        start = cut;
      }
      const trail = tags[e - 1]!.trail;
      const trailFrom = trail ? round4(end - Math.min(LEAD_SECONDS, (end - start) / 3)) : end;
      const timing: PhoneTiming = {
        phone: tags[k]!.ipa,
        model_phone: models.join(' '),
        start,
        end: trailFrom,
        confidence,
      };
      if (!isNative(set, timing.phone, models)) timing.approximated = true;
      out.push(timing);
      // (and one that ends the word, at the end of the phone before it)
      if (trail) out.push({ phone: trail, model_phone: '', start: trailFrom, end, approximated: true });
      k = e;
    }
  }
  return out;
}

const clamp01 = (x: number): number => Math.max(0, Math.min(1, x));
const round4 = (x: number): number => Math.round(x * 10000) / 10000;
