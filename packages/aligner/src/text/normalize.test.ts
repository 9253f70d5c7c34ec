import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_NORMALIZE_OPTIONS, matchKey, normalizeTranscript, splitWords } from './normalize.ts';

const toks = (text: string, lang: string, opts = {}): string[] =>
  normalizeTranscript(text, lang, opts).tokens.map((t) => t.text);
const pairs = (text: string, lang: string, opts = {}): string[] =>
  normalizeTranscript(text, lang, opts).tokens.map((t) => `${t.text}@${t.wordIndex}`);

test('defaults', () => {
  assert.deepEqual(DEFAULT_NORMALIZE_OPTIONS, {
    normalize: true,
    numbersToWords: true,
    removeFillers: false,
    inputKind: 'orthography',
    keepDiacritics: true,
  });
});

test('empty and whitespace-only input give no words', () => {
  for (const t of ['', '   ', '\n\t \u00A0\u3000']) {
    const r = normalizeTranscript(t, 'eng');
    assert.deepEqual(r.words, []);
    assert.deepEqual(r.tokens, []);
    assert.equal(r.processedText, '');
  }
});

test('punctuation-only input and punctuation-only tokens are not words', () => {
  assert.deepEqual(normalizeTranscript('?! — … " ،', 'ara').words, []);
  const r = normalizeTranscript('Condamné à mort !', 'fra');
  assert.deepEqual(
    r.words.map((w) => w.text),
    ['Condamné', 'à', 'mort'],
  );
});

test('link-back offsets: text.slice(charStart, charEnd) is the word, in UTF-16 units', () => {
  const text = '  Hello,\u00A0wörld 😀x\tمَرْحَبًا\n"quoted" e\u0301te\u0301';
  const { words, tokens } = normalizeTranscript(text, 'eng');
  assert.deepEqual(
    words.map((w) => w.text),
    ['Hello,', 'wörld', '😀x', 'مَرْحَبًا', '"quoted"', 'e\u0301te\u0301'],
  );
  for (const w of words) assert.equal(text.slice(w.charStart, w.charEnd), w.text);
  assert.equal(words[2]?.charEnd, (words[2]?.charStart ?? 0) + 3); // surrogate pair counts 2
  words.forEach((w, i) => assert.equal(w.index, i));
  for (const t of tokens) assert.ok(t.wordIndex >= 0 && t.wordIndex < words.length);
  // tokens stay in word order
  const idx = tokens.map((t) => t.wordIndex);
  assert.deepEqual(
    idx,
    [...idx].sort((a, b) => a - b),
  );
});

test('NFC: decomposed input gives composed tokens, offsets stay on the original', () => {
  const text = 'e\u0301te\u0301 cafe\u0301';
  const r = normalizeTranscript(text, 'fra');
  assert.deepEqual(
    r.tokens.map((t) => t.text),
    ['été', 'café'],
  );
  assert.equal(r.words[1]?.charEnd, text.length);
});

test('RTL marks, bidi overrides and zero-width characters are removed from tokens, not from words', () => {
  const text = '\u202Ehello\u202C wo\u200Brld\u200D \u200Fمرحبا\u200E \uFEFFbom';
  const r = normalizeTranscript(text, 'eng');
  assert.equal(r.words.length, 4);
  assert.equal(r.words[0]?.text, '\u202Ehello\u202C');
  assert.deepEqual(
    r.tokens.map((t) => t.text),
    ['hello', 'world', 'مرحبا', 'bom'],
  );
  // a token made only of invisible characters is not a word
  assert.deepEqual(normalizeTranscript('\u200B \u202E\u202C', 'eng').words, []);
});

test('normalize: false keeps the written form (minus invisible characters), numbers still read', () => {
  assert.deepEqual(toks('Hello, World! 12', 'eng', { normalize: false }), ['Hello,', 'World!', 'twelve']);
  assert.deepEqual(toks('Hello 12', 'eng', { normalize: false, numbersToWords: false }), ['Hello', '12']);
});

test('inputKind ipa: one token per word, brackets and slashes removed', () => {
  const r = normalizeTranscript('/baxiːl/ [ˈkæt] tʃa', 'aeb', { inputKind: 'ipa' });
  assert.deepEqual(
    r.tokens.map((t) => t.text),
    ['baxiːl', 'ˈkæt', 'tʃa'],
  );
});

// ---------------------------------------------------------------- Arabic, rule by rule

test('Arabic: diacritics kept for pronunciation by default, removed with keepDiacritics false', () => {
  assert.deepEqual(toks('ذَهَبَ الطَّالِبُ', 'ara'), ['ذَهَبَ', 'الطَّالِبُ']);
  assert.deepEqual(toks('ذَهَبَ الطَّالِبُ', 'ara', { keepDiacritics: false }), ['ذهب', 'الطالب']);
});

test('Arabic: shadda and tanwin are diacritics (kept / removed)', () => {
  assert.deepEqual(toks('جَدِّي كِتَابًا قَرْيَةٍ نُورٌ', 'ara'), ['جَدِّي', 'كِتَابًا', 'قَرْيَةٍ', 'نُورٌ']);
  assert.deepEqual(toks('جَدِّي كِتَابًا قَرْيَةٍ نُورٌ', 'ara', { keepDiacritics: false }), [
    'جدي',
    'كتابا',
    'قرية',
    'نور',
  ]);
});

test('Arabic: hamza forms are kept as written (they are pronounced ʔ); matchKey folds them', () => {
  assert.deepEqual(toks('أَمْرٌ إِلَى آمَنَ سُؤَالٌ بِئْرٌ شَيْءٌ', 'ara', { keepDiacritics: false }), [
    'أمر',
    'إلى',
    'آمن',
    'سؤال',
    'بئر',
    'شيء',
  ]);
  assert.equal(matchKey('أَحْمَد', 'ara'), matchKey('احمد', 'ara'));
  assert.equal(matchKey('إِلى', 'ara'), matchKey('الي', 'ara'));
  assert.equal(matchKey('آمن', 'ara'), 'امن');
});

test('Arabic: alef wasla becomes a plain alef', () => {
  assert.deepEqual(toks('ٱلْكِتَٰبُ', 'ara'), ['الْكِتَٰبُ']);
  assert.deepEqual(toks('ٱلْكِتَٰبُ', 'ara', { keepDiacritics: false }), ['الكتب']);
});

test('Arabic: dagger alif is kept in the pronunciation form (long ā) and dropped in the plain form', () => {
  assert.deepEqual(toks('ذَٰلِكَ', 'ara'), ['ذَٰلِكَ']);
  assert.deepEqual(toks('ذَٰلِكَ', 'ara', { keepDiacritics: false }), ['ذلك']);
});

test('Arabic: alef maqsura and ta marbuta stay as written', () => {
  assert.deepEqual(toks('مُسْتَشْفًى الْمَكْتَبَةِ', 'ara', { keepDiacritics: false }), ['مستشفى', 'المكتبة']);
  assert.equal(matchKey('مستشفى', 'ara'), matchKey('مستشفي', 'ara'));
  assert.equal(matchKey('مكتبة', 'ara'), matchKey('مكتبه', 'ara'));
});

test('Arabic: tatweel is removed', () => {
  assert.deepEqual(toks('كـــتاب', 'ara'), ['كتاب']);
  assert.deepEqual(splitWords('ـــ').length, 1); // tatweel is a letter-modifier: a word with no token
  assert.deepEqual(toks('ـــ', 'ara'), []);
});

test('Arabic: Quranic marks removed; standalone pause marks and verse numbers are not words', () => {
  const text = 'ذَٰلِكَ ٱلْكِتَٰبُ لَا رَيْبَ ۛ فِيهِ ۛ هُدًى لِّلْمُتَّقِينَ ﴿٢﴾ ۝٣ ۞';
  const r = normalizeTranscript(text, 'ara', { keepDiacritics: false });
  assert.deepEqual(
    r.words.map((w) => w.text),
    ['ذَٰلِكَ', 'ٱلْكِتَٰبُ', 'لَا', 'رَيْبَ', 'فِيهِ', 'هُدًى', 'لِّلْمُتَّقِينَ'],
  );
  assert.deepEqual(
    r.tokens.map((t) => t.text),
    ['ذلك', 'الكتب', 'لا', 'ريب', 'فيه', 'هدى', 'للمتقين'],
  );
  // marks attached to a word are removed from it; small waw/yeh become long vowel letters
  assert.deepEqual(toks('رَيْبَۛ', 'ara'), ['رَيْبَ']);
  assert.deepEqual(toks('إِنَّهُۥ', 'ara'), ['إِنَّهُو']);
  // the letter under the "silent" small zero is dropped from the pronunciation
  assert.deepEqual(toks('أُو۟لَٰٓئِكَ', 'ara', { keepDiacritics: false }), ['أولئك']);
  assert.ok(!toks('أُو۟لَٰٓئِكَ', 'ara')[0]?.includes('و'));
});

test('Arabic: plain form equals the evaluation text_plain for the synthetic set', () => {
  const text = 'ذَهَبَ الطَّالِبُ إِلَى الْمَكْتَبَةِ لِيَقْرَأَ كِتَابًا جَدِيدًا عَنِ التَّارِيخِ.';
  assert.equal(
    normalizeTranscript(text, 'ara', { keepDiacritics: false }).processedText,
    'ذهب الطالب إلى المكتبة ليقرأ كتابا جديدا عن التاريخ',
  );
});

test('Arabic: Arabic-Indic and Persian digits are read in Arabic words', () => {
  assert.deepEqual(toks('١٩٤٨', 'ara'), ['ألف', 'وتسعمائة', 'وثمانية', 'وأربعون']);
  assert.deepEqual(toks('۱۲', 'ara'), ['اثنا', 'عشر']);
  assert.deepEqual(pairs('عَامِ 1948 فِي', 'ara'), [
    'عَامِ@0',
    'ألف@1',
    'وتسعمائة@1',
    'وثمانية@1',
    'وأربعون@1',
    'فِي@2',
  ]);
  assert.deepEqual(toks('365', 'arz'), ['ثلاثمائة', 'وخمسة', 'وستون']);
  assert.deepEqual(toks('12', 'ara', { numbersToWords: false }), ['12']);
});

test('Arabic: punctuation (، ؛ ؟ « » .) is removed, also between words written without a space', () => {
  assert.deepEqual(toks('الْعَقْلِ، كَمَا؟ «نَعَمْ»؛', 'ara', { keepDiacritics: false }), ['العقل', 'كما', 'نعم']);
  assert.deepEqual(pairs('كتاب،قلم', 'ara'), ['كتاب@0', 'قلم@0']);
});

test('Arabic: presentation forms (lam-alef ligature) are decomposed', () => {
  assert.deepEqual(toks('\uFEFB', 'ara'), ['لا']);
});

test('Arabic: fillers removed only with removeFillers', () => {
  assert.deepEqual(toks('امم نعم', 'ara'), ['امم', 'نعم']);
  assert.deepEqual(pairs('امم نعم', 'ara', { removeFillers: true }), ['نعم@1']);
});

// ---------------------------------------------------------------- English

test('English: case folding and edge punctuation', () => {
  assert.deepEqual(toks('She had YOUR dark suit.', 'eng'), ['she', 'had', 'your', 'dark', 'suit']);
  assert.deepEqual(toks('"Quoted," (paren) [x]', 'eng'), ['quoted', 'paren', 'x']);
});

test("English: apostrophes kept inside words (CMU has don't, one's), curly ones straightened", () => {
  assert.deepEqual(toks("Don't one’s today's 'em students' 'quoted'", 'eng'), [
    "don't",
    "one's",
    "today's",
    "'em",
    "students'",
    'quoted',
  ]);
});

test('English: hyphenated compounds split (one word, several tokens), or kept when the lexicon has them', () => {
  assert.deepEqual(pairs('a test-run now', 'eng'), ['a@0', 'test@1', 'run@1', 'now@2']);
  const lexicon = new Set(['grade-equivalent']);
  assert.deepEqual(toks('grade-equivalent semi-heights', 'eng', { hasWord: (w: string) => lexicon.has(w) }), [
    'grade-equivalent',
    'semi',
    'heights',
  ]);
  assert.deepEqual(toks('well—done', 'eng'), ['well', 'done']);
});

test('English: abbreviations', () => {
  assert.deepEqual(toks('Mr. Smith, Dr. Who and Mrs. Jones', 'eng'), [
    'mister',
    'smith',
    'doctor',
    'who',
    'and',
    'missus',
    'jones',
  ]);
  assert.deepEqual(toks('St. John lives on Main St.', 'eng'), [
    'saint',
    'john',
    'lives',
    'on',
    'main',
    'street',
  ]);
  assert.deepEqual(toks('apples, pears, etc.', 'eng'), ['apples', 'pears', 'et', 'cetera']);
});

test('English: cardinals, years, ordinals, decimals, grouping, percent, leading zeros', () => {
  assert.deepEqual(toks('12', 'eng'), ['twelve']);
  assert.deepEqual(toks('1948', 'eng'), ['nineteen', 'forty', 'eight']);
  assert.deepEqual(toks('1900 1905 2005 2024', 'eng'), [
    'nineteen',
    'hundred',
    'nineteen',
    'oh',
    'five',
    'two',
    'thousand',
    'five',
    'twenty',
    'twenty',
    'four',
  ]);
  assert.deepEqual(toks('365', 'eng'), ['three', 'hundred', 'sixty', 'five']);
  assert.deepEqual(toks('21st 3rd', 'eng'), ['twenty', 'first', 'third']);
  assert.deepEqual(toks('2.5', 'eng'), ['two', 'point', 'five']);
  assert.deepEqual(toks('1,000,000', 'eng'), ['one', 'million']);
  assert.deepEqual(toks('50%', 'eng'), ['fifty', 'percent']);
  assert.deepEqual(toks('007', 'eng'), ['zero', 'zero', 'seven']);
  assert.deepEqual(toks('12', 'eng', { numbersToWords: false }), ['12']);
});

test('English: fillers removed only with removeFillers, and the word keeps its index', () => {
  const text = 'this is um me talking uh slowly';
  assert.deepEqual(toks(text, 'eng'), ['this', 'is', 'um', 'me', 'talking', 'uh', 'slowly']);
  const r = normalizeTranscript(text, 'eng', { removeFillers: true });
  assert.equal(r.words.length, 7);
  assert.deepEqual(
    r.tokens.map((t) => `${t.text}@${t.wordIndex}`),
    ['this@0', 'is@1', 'me@3', 'talking@4', 'slowly@6'],
  );
});

// ---------------------------------------------------------------- French

test("French: elisions split after the apostrophe (dictionary has l' d' qu' jusqu')", () => {
  assert.deepEqual(pairs("L'homme qu'il d’eau jusqu'ici", 'fra'), [
    "l'@0",
    'homme@0',
    "qu'@1",
    'il@1',
    "d'@2",
    'eau@2',
    "jusqu'@3",
    'ici@3',
  ]);
  assert.deepEqual(toks("aujourd'hui presqu'île", 'fra'), ["aujourd'hui", "presqu'île"]);
});

test('French: hyphenated words kept whole (dictionary has them), split when the lexicon lacks them', () => {
  assert.deepEqual(toks('peut-être est-ce', 'fra'), ['peut-être', 'est-ce']);
  const lexicon = new Set(['peut-être']);
  assert.deepEqual(toks('peut-être est-ce', 'fra', { hasWord: (w: string) => lexicon.has(w) }), [
    'peut-être',
    'est',
    'ce',
  ]);
});

test('French: numbers, ordinals, abbreviations, fillers', () => {
  assert.deepEqual(toks('1948', 'fra'), ['mille', 'neuf', 'cent', 'quarante', 'huit']);
  assert.deepEqual(toks('80 71', 'fra'), ['quatre', 'vingts', 'soixante', 'et', 'onze']);
  assert.deepEqual(toks('2,5', 'fra'), ['deux', 'virgule', 'cinq']);
  assert.deepEqual(toks('1er 1re 2e 3ème', 'fra'), ['premier', 'première', 'deuxième', 'troisième']);
  assert.deepEqual(toks('M. Dupont et Mme Durand', 'fra'), ['monsieur', 'dupont', 'et', 'madame', 'durand']);
  assert.deepEqual(toks('euh bon', 'fra', { removeFillers: true }), ['bon']);
  assert.deepEqual(toks('euh bon', 'fra'), ['euh', 'bon']);
});

// ---------------------------------------------------------------- other languages

test('other languages: lower case (Turkish dotted I), numbers in words where n2words has them', () => {
  assert.deepEqual(toks('Zwölf 12', 'deu'), ['zwölf', 'zwölf']);
  assert.deepEqual(toks('İSTANBUL', 'tur'), ['istanbul']);
  // no number words for Japanese here: digits are left for eSpeak to read
  assert.deepEqual(toks('12', 'jpn'), ['12']);
});

test('an unknown language is an error', () => {
  assert.throws(() => normalizeTranscript('x', 'xx-unknown'), /unknown language code/);
});

test('spoken symbols: a standalone & % € is a word in languages that read it, silent elsewhere', () => {
  assert.deepEqual(pairs('rock & roll', 'eng'), ['rock@0', 'and@1', 'roll@2']);
  assert.deepEqual(pairs('50 % et 5 €', 'fra'), [
    'cinquante@0',
    'pour@1',
    'cent@1',
    'et@2',
    'cinq@3',
    'euros@4',
  ]);
  assert.deepEqual(pairs('50 %', 'ara'), ['خمسون@0', 'في@1', 'المئة@1']);
  assert.deepEqual(pairs('a & b', 'deu'), ['a@0', 'b@1']);
  assert.equal(splitWords('a & b').length, 2); // without a language, symbols are never words
  assert.equal(splitWords('a & b', 'eng').length, 3);
});

test('currency next to a number and clock times', () => {
  assert.deepEqual(toks('$5 $1 2.5€', 'eng'), [
    'five',
    'dollars',
    'one',
    'dollar',
    'two',
    'point',
    'five',
    'euros',
  ]);
  assert.deepEqual(toks('10$', 'ara'), ['عشرة', 'دولار']);
  assert.deepEqual(toks('10:05 3:00 12:45', 'eng'), [
    'ten',
    'oh',
    'five',
    'three',
    "o'clock",
    'twelve',
    'forty',
    'five',
  ]);
  assert.deepEqual(toks('10h30 1h 14:00', 'fra'), [
    'dix',
    'heures',
    'trente',
    'une',
    'heure',
    'quatorze',
    'heures',
  ]);
  assert.deepEqual(toks('25:99', 'eng'), ['twenty', 'five', 'ninety', 'nine']); // not a time: two numbers
});
