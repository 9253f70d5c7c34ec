import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  arabicPronunciationLattice,
  espeakIpa,
  ipaToPhones,
  releaseEspeak,
  unknownIpaSymbols,
} from './g2p.ts';

// A lattice as a readable string: slots separated by spaces, alternatives by "|", silent as "∅".
const show = (word: string): string =>
  arabicPronunciationLattice(word)
    .map((slot) => slot.map((a) => a || '∅').join('|'))
    .join(' ');

test('ipaToPhones: letters, length, diacritics, stress removed', () => {
  assert.deepEqual(ipaToPhones('baxiːl'), ['b', 'a', 'x', 'iː', 'l']);
  assert.deepEqual(ipaToPhones('ˈkʰæt.ˌɾɪ'), ['kʰ', 'æ', 't', 'ɾ', 'ɪ']);
  assert.deepEqual(ipaToPhones('t̪ãː'), ['t̪', 'ãː']);
  assert.deepEqual(ipaToPhones('sˤɑbʕ'), ['sˤ', 'ɑ', 'b', 'ʕ']);
});

test('ipaToPhones: affricates and diphthongs as one unit (tied, untied tʃ dʒ, non-syllabic)', () => {
  assert.deepEqual(ipaToPhones('t͡sa'), ['ts', 'a']);
  assert.deepEqual(ipaToPhones('tʃadʒ'), ['tʃ', 'a', 'dʒ']);
  assert.deepEqual(ipaToPhones('ts'), ['t', 's']); // untied t+s stays two phones (cats)
  assert.deepEqual(ipaToPhones('haɪ̯'), ['h', 'aɪ']);
  assert.deepEqual(ipaToPhones('a͡ɪ'), ['aɪ']);
});

test('ipaToPhones: tones and separators dropped, empty input', () => {
  assert.deepEqual(ipaToPhones('ma˥˩ ma2'), ['m', 'a', 'm', 'a']);
  assert.deepEqual(ipaToPhones(''), []);
  assert.deepEqual(ipaToPhones(' . | '), []);
});

test('espeakIpa: English, French, Arabic phones per token with one shared instance', async () => {
  const en = await espeakIpa(['hello', 'judge', '', '!!'], 'eng');
  assert.deepEqual(en[0], ['h', 'ə', 'l', 'oʊ']);
  assert.deepEqual(en[1], ['dʒ', 'ʌ', 'dʒ']);
  assert.deepEqual(en[2], []);
  assert.deepEqual(en[3], []);
  const fr = await espeakIpa(["l'", 'homme', 'condamné'], 'fr');
  assert.deepEqual(fr[1], ['ɔ', 'm']);
  assert.deepEqual(fr[2], ['k', 'ɔ̃', 'd', 'a', 'n', 'e']);
  const ar = await espeakIpa(['ذَهَبَ'], 'ara');
  assert.deepEqual(ar[0], ['ð', 'a', 'h', 'a', 'b', 'a']);
  // no stress marks, no empty phones, in any output
  for (const phones of [...en, ...fr, ...ar]) {
    for (const p of phones) assert.ok(p && !/[ˈˌ_|\s]/.test(p), p);
  }
});

test('espeakIpa: eSpeak control syntax in user text is not interpreted', async () => {
  const [a, b, plain] = await espeakIpa(['[[h@l]]', 'hello', 'h@l'], 'eng');
  // the brackets are not eSpeak's phoneme input: the letters inside are read as the same letters outside
  assert.deepEqual(a, plain);
  assert.deepEqual(b, ['h', 'ə', 'l', 'oʊ']);
  for (const p of a ?? []) assert.ok(!p.includes('@'));
});

test('espeakIpa: an instance let go (a long job) is loaded again with the voice asked, words read the same', async () => {
  const before = await espeakIpa(['weather', 'maison'], 'en');
  const french = await espeakIpa(['maison'], 'fr');
  releaseEspeak();
  // the new instance starts without a voice: English must be chosen again, not French kept
  assert.deepEqual(await espeakIpa(['weather', 'maison'], 'en'), before);
  releaseEspeak();
  releaseEspeak();
  assert.deepEqual(await espeakIpa(['maison'], 'fr'), french);
  assert.notDeepEqual(french[0], before[1], 'the two voices read "maison" differently');
});

test('espeakIpa: unknown language throws', async () => {
  await assert.rejects(espeakIpa(['x'], 'zzz'), /unknown language code/);
});

// ---------------------------------------------------------------- Arabic lattice, rule by rule

test('lattice: fully vowelled word gives single alternatives (final short vowel optional at pause)', () => {
  assert.equal(show('ذَهَبَ'), 'ð a h a b a|∅');
});

test('lattice: unvowelled consonants get optional short vowels', () => {
  assert.equal(show('ذهب'), 'ð a|i|u|∅ h a|i|u|∅ b a|i|u|∅');
});

test('lattice: shadda doubles the consonant', () => {
  assert.equal(show('جَدِّي'), 'dʒ a d d iː');
});

test('lattice: sukun means no vowel', () => {
  assert.equal(show('قَرْيَة'), 'q a r j a t|h|∅ a|i|u|∅');
});

test('lattice: tanwin (an/un/in, n optional at a pause), alef after tanwin fath silent', () => {
  assert.equal(show('كِتَابًا'), 'k i t aː b a|aː n|∅');
  assert.equal(show('نُورٌ'), 'n uː r u|∅ n|∅');
  assert.equal(show('قَرْيَةٍ'), 'q a r j a t|h|∅ i|∅ n|∅');
  assert.equal(show('هُدًى'), 'h u d a|aː n|∅');
});

test('lattice: long vowels: alef ā, waw ū after damma, yaa ī after kasra; consonant w/j otherwise', () => {
  assert.equal(show('لَا'), 'l aː');
  assert.equal(show('نُور'), 'n uː r a|i|u|∅');
  assert.equal(show('فِيهِ'), 'f iː h i|∅');
  assert.equal(show('وَلَد'), 'w a l a d a|i|u|∅');
  assert.equal(show('رَيْب'), 'r a j b a|i|u|∅');
  // unvowelled: waw/yaa may be a long vowel or a consonant
  assert.equal(show('عَالِيًا'), 'ʕ aː l i j a|aː n|∅'); // yaa with tanwin is a consonant
  assert.equal(show('كتابا'), 'k a|i|u|∅ t aː b aː|a ∅|n'); // unvowelled final alef: ā or tanwin an
  assert.equal(show('يوم'), 'j ∅|a|u uː|w ∅|a m a|i|u|∅');
  assert.equal(show('ثمانية'), 'θ a|i|u|∅ m aː n ∅|a|i iː|j ∅|a t|h|∅ a|i|u|∅ ∅|n');
});

test('lattice: hamza forms are ʔ; madda alef is ʔā', () => {
  assert.equal(show('أَمْر'), 'ʔ a m r a|i|u|∅');
  assert.equal(show('إِلَى'), 'ʔ i l aː');
  assert.equal(show('سُؤَال'), 's u ʔ aː l a|i|u|∅');
  assert.equal(show('بِئْر'), 'b i ʔ r a|i|u|∅');
  assert.equal(show('شَيْءٌ'), 'ʃ a j ʔ u|∅ n|∅');
  assert.equal(show('آمَنَ'), 'ʔ aː m a n a|∅');
});

test('lattice: ta marbuta may be t, h or silent', () => {
  assert.equal(show('مَدْرَسَة'), 'm a d r a s a t|h|∅ a|i|u|∅');
  // unvowelled, it may also end in tanwin (madrasatun, risālatan)
  assert.equal(show('رسالة'), 'r a|i|u|∅ s aː l a|i|u|∅ t|h|∅ a|i|u|∅ ∅|n');
});

test('lattice: alef maqsura is ā (or ī when unvowelled, the old spelling of final ي)', () => {
  assert.equal(show('مُسْتَشْفَى'), 'm u s t a ʃ f aː');
  assert.equal(show('مستشفى'), 'm a|i|u|∅ s a|i|u|∅ t a|i|u|∅ ʃ a|i|u|∅ f aː|iː');
});

test('lattice: article before a sun letter assimilates (lam silent, letter doubled)', () => {
  assert.equal(show('الشَّمْسُ'), 'ʔ|∅ a|∅ ʃ ʃ a m s u|∅');
  assert.equal(show('الشمس'), 'ʔ|∅ a|∅ ʃ ʃ a|i|u|∅ m a|i|u|∅ s a|i|u|∅');
});

test('lattice: article before a moon letter keeps its lam; alef wasla optional ʔa at the start', () => {
  assert.equal(show('الْبَحْرِ'), 'ʔ|∅ a|∅ l b a ħ r i|∅');
  assert.equal(show('ٱلْكِتَٰبُ'), 'ʔ|∅ a|∅ l k i t aː b u|∅');
});

test('lattice: article after a prefix (و ب) drops its alef; لِّلْ is li + l', () => {
  assert.equal(show('وَالدِّفْءِ'), 'w a d d i f ʔ i|∅');
  assert.equal(show('بِالنُّورِ'), 'b i n n uː r i|∅');
  assert.equal(show('لِّلْمُتَّقِينَ'), 'l i l m u t t a q iː n a|∅');
});

test('lattice: unvowelled, a prefix on the article has its own vowel; the article is followed by a consonant', () => {
  assert.equal(show('والسماء'), 'w a s s a|i|u|∅ m aː ʔ a|i|u|∅');
  assert.equal(show('بالقطار'), 'b i l q a|i|u|∅ tˤ aː r a|i|u|∅');
  assert.equal(show('فالشمس'), 'f a ʃ ʃ a|i|u|∅ m a|i|u|∅ s a|i|u|∅');
  assert.equal(show('كالبحر'), 'k a l b a|i|u|∅ ħ a|i|u|∅ r a|i|u|∅');
  // the function-word lattice takes its prefixes' vowels from the same table (فهذا = fa-hāðā, بهذه = bi-hāðihi)
  assert.match(show('فهذا'), /^f a h/);
  assert.match(show('بهذه'), /^b i h/);
  // و right after the article is w, never ū (al-walad, al-wizāra)
  assert.equal(show('الولد'), 'ʔ|∅ a|∅ l w a|i|u|∅ l a|i|u|∅ d a|i|u|∅');
  // a word's own first و is not a prefix (walad, wulida): its vowel stays open
  assert.equal(show('ولد'), 'w a|i|u|∅ l a|i|u|∅ d a|i|u|∅');
});

test('lattice: dagger alif is ā; Uthmani small waw lengthens', () => {
  assert.equal(show('ذَٰلِكَ'), 'ð aː l i k a|∅');
  assert.equal(show('إِنَّهُۥ'), 'ʔ i n n a h uː');
});

test('lattice: word-initial alef (hamzat wasl) and alef al-fasila', () => {
  assert.equal(show('اِشْتَرَتْ'), 'ʔ|∅ i|∅ ʃ t a r a t');
  assert.equal(show('اجْتَهِدُوا'), 'ʔ|∅ a|i|u|∅ dʒ t a h i d uː');
});

test('lattice: unvowelled final ي is ī, or the nisba ending -iyy with a case vowel', () => {
  assert.equal(show('الصحفي'), 'ʔ|∅ a|∅ sˤ sˤ a|i|u|∅ ħ a|i|u|∅ f ∅|a|i iː|j|ijj ∅|a|i|u');
  assert.equal(show('يمشي'), 'j a|i|u|∅ m a|i|u|∅ ʃ ∅|a|i iː|j|ijj ∅|a|i|u');
  // vowelled, the marks decide
  assert.equal(show('عَرَبِيٌّ'), 'ʕ a r a b i j j u|∅ n|∅');
});

test('lattice: unvowelled function words are read as the grammar reads them', () => {
  assert.equal(show('في'), 'f iː');
  assert.equal(show('فى'), 'f iː'); // the Egyptian ى for final ي
  assert.equal(show('على'), 'ʕ a l aː');
  assert.equal(show('إلى'), 'ʔ i l aː');
  assert.equal(show('الى'), 'ʔ i l aː'); // without its hamza, as often typed
  assert.equal(show('هذا'), 'h aː ð aː'); // the ā the spelling leaves out
  assert.equal(show('من'), 'm i|a n ∅|a|i'); // min or man, mina before the article
  assert.equal(show('أن'), 'ʔ a n n|∅ a|∅'); // ʔan or ʔanna
  // with a conjunction or a preposition written onto it
  assert.equal(show('وعلى'), 'w a ʕ a l aː');
  assert.equal(show('فإن'), 'f a ʔ i n n|∅ a|∅');
  assert.equal(show('بهذا'), 'b i h aː ð aː');
  assert.equal(show('والذي'), 'w a l l a ð iː'); // the article's alef is not spoken after wa-
  // not a function word: وهم is wahm as often as wa-hum, so the letter rules read it
  assert.equal(show('وهم'), 'w a|i|u|∅ h a|i|u|∅ m a|i|u|∅');
  // a preposition is written onto demonstratives only (بعد is baʕd, not bi-ʕd)
  assert.equal(show('بعد'), 'b a ʕ d a|u|∅');
  // vowelled text keeps the writer's vowels
  assert.equal(show('عَلَى'), 'ʕ a l aː');
  assert.equal(show('مِنَ'), 'm i n a|∅');
});

test('lattice: Persian letters, tatweel and non-Arabic characters', () => {
  assert.equal(show('پـچ'), 'p a|i|u|∅ tʃ a|i|u|∅');
  assert.deepEqual(arabicPronunciationLattice('abc 12'), []);
  assert.deepEqual(arabicPronunciationLattice(''), []);
});

test('lattice: the silent alef of مائة (also in compounds and when vowelled)', () => {
  assert.equal(show('مائة'), 'm i ʔ a|i|u|∅ t|h|∅ a|i|u|∅ ∅|n');
  assert.equal(show('ثلاثمائة'), 'θ a|i|u|∅ l aː θ a|i|u|∅ m i ʔ a|i|u|∅ t|h|∅ a|i|u|∅ ∅|n');
  assert.equal(show('مِائَةٌ'), 'm i ʔ a t|h|∅ u|∅ n|∅');
  assert.equal(show('مال'), 'm aː l a|i|u|∅'); // an ordinary alef after م is still ā
});

test('lattice: the name of God (الله, والله, بالله, لله, vowelled or not)', () => {
  assert.equal(show('الله'), 'ʔ|∅ a|∅ l l aː|a h u|i|a|∅');
  assert.equal(show('اللَّهِ'), 'ʔ|∅ a|∅ l l aː|a h u|i|a|∅');
  assert.equal(show('ٱللَّٰهِ'), 'ʔ|∅ a|∅ l l aː|a h u|i|a|∅');
  assert.equal(show('والله'), 'w a l l aː|a h u|i|a|∅');
  assert.equal(show('بِاللَّهِ'), 'b i l l aː|a h u|i|a|∅');
  assert.equal(show('لله'), 'l i l l aː|a h u|i|a|∅');
});

test('unknownIpaSymbols names what segmentation would drop without a word', () => {
  assert.deepEqual(unknownIpaSymbols('həˈləʊ'), []);
  assert.deepEqual(unknownIpaSymbols('t͡ʃ aɪ̯ ˌbaː.xiːl ˥˩'), []);
  assert.deepEqual(unknownIpaSymbols('h@l$o'), ['@', '$']);
  assert.deepEqual(unknownIpaSymbols('HELLO'), ['H', 'E', 'L', 'O']);
  assert.deepEqual(unknownIpaSymbols('=SUM(1)'), ['=', 'S', 'U', 'M', '(', ')']);
});
