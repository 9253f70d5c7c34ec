// The most frequent words of Modern Standard Arabic whose vowels the unvowelled spelling does not give and
// the letter rules (g2p.ts) cannot guess: prepositions, particles, pronouns, demonstratives, relatives,
// question words and a few verbs. Written here from the grammar, not from any corpus: each entry is the
// word's standard reading, its slots in the lattice notation of the tests (slots separated by spaces,
// alternatives by "|", a silent alternative as "∅"). A final vowel that only connected speech or the case
// adds is optional (مِنَ الـ, بَعْدَ/بَعْدُ). Spellings people commonly use without the hamza (الى, انا) and
// the Egyptian ى for final ي (فى, الذى) are listed with the standard ones.
//
// Unvowelled text is where the English model must choose the vowels; on these short words a wrong choice
// costs most (a vowel given to the neighbour moves both edges), and a word the acoustics hardly tell
// apart (على: ʕ and l, then ā) could be placed anywhere its few phones fit.

const WORDS: Readonly<Record<string, string>> = {
  // prepositions
  في: 'f iː',
  فى: 'f iː',
  من: 'm i|a n ∅|a|i',
  إلى: 'ʔ i l aː',
  الى: 'ʔ i l aː',
  على: 'ʕ a l aː',
  عن: 'ʕ a n ∅|i',
  مع: 'm a ʕ a|∅',
  حتى: 'ħ a t t aː',
  منذ: 'm u n ð u|∅',
  بين: 'b a j n a|∅',
  عند: 'ʕ i n d a|∅',
  بعد: 'b a ʕ d a|u|∅',
  قبل: 'q a b l a|u|∅',
  حول: 'ħ a w l a|∅',
  دون: 'd uː n a|i|∅',
  خلال: 'x i l aː l a|i|∅',
  فوق: 'f a w q a|∅',
  تحت: 't a ħ t a|∅',
  أمام: 'ʔ a m aː m a|∅',
  لدى: 'l a d aː',
  // particles and conjunctions
  أن: 'ʔ a n n|∅ a|∅',
  إن: 'ʔ i n n|∅ a|∅',
  لأن: 'l i ʔ a n n a|∅',
  لكن: 'l aː k i n n|∅ a|∅',
  ثم: 'θ u m m a',
  أو: 'ʔ a w',
  او: 'ʔ a w',
  بل: 'b a l',
  لم: 'l a m',
  لن: 'l a n',
  قد: 'q a d',
  لقد: 'l a q a d',
  هل: 'h a l',
  ما: 'm aː',
  إذا: 'ʔ i ð aː',
  اذا: 'ʔ i ð aː',
  إذ: 'ʔ i ð',
  كي: 'k a j',
  لكي: 'l i k a j',
  كما: 'k a m aː',
  إلا: 'ʔ i l l aː',
  الا: 'ʔ i l l aː',
  ليس: 'l a j s a',
  حيث: 'ħ a j θ u',
  عندما: 'ʕ i n d a m aː',
  مثل: 'm i θ l a|i|u|∅',
  غير: 'ɣ a j r a|i|u|∅',
  كل: 'k u l l a|i|u|∅',
  بعض: 'b a ʕ dˤ a|i|u|∅',
  أيضا: 'ʔ a j dˤ a|aː n|∅',
  ايضا: 'ʔ a j dˤ a|aː n|∅',
  جدا: 'dʒ i d d a|aː n|∅',
  فقط: 'f a q a tˤ',
  // pronouns
  هو: 'h u w a',
  هي: 'h i j a',
  هم: 'h u m u|∅',
  هما: 'h u m aː',
  أنا: 'ʔ a n aː',
  انا: 'ʔ a n aː',
  نحن: 'n a ħ n u',
  أنت: 'ʔ a n t a|i|∅',
  انت: 'ʔ a n t a|i|∅',
  أنتم: 'ʔ a n t u m',
  // demonstratives and relatives (هذا, ذلك: an ā the spelling leaves out)
  هذا: 'h aː ð aː',
  هذه: 'h aː ð i h i|∅',
  ذلك: 'ð aː l i k a|∅',
  تلك: 't i l k a',
  هؤلاء: 'h aː ʔ u l aː ʔ i|∅',
  هنا: 'h u n aː',
  هناك: 'h u n aː k a|∅',
  لذلك: 'l i ð aː l i k a|∅',
  كذلك: 'k a ð aː l i k a|∅',
  الذي: 'ʔ|∅ a|∅ l l a ð iː',
  الذى: 'ʔ|∅ a|∅ l l a ð iː',
  التي: 'ʔ|∅ a|∅ l l a t iː',
  التى: 'ʔ|∅ a|∅ l l a t iː',
  الذين: 'ʔ|∅ a|∅ l l a ð iː n a|∅',
  // questions
  متى: 'm a t aː',
  أين: 'ʔ a j n a|∅',
  اين: 'ʔ a j n a|∅',
  كيف: 'k a j f a|∅',
  ماذا: 'm aː ð aː',
  لماذا: 'l i m aː ð aː',
  // verbs
  كان: 'k aː n a|∅',
  كانت: 'k aː n a t',
  قال: 'q aː l a|∅',
};

/** Words a one-letter conjunction (وَ, فَ) may be written onto; not هم, which would read وهم (wahm) as wa-hum. */
const CONJOINED = new Set(Object.keys(WORDS).filter((w) => w !== 'هم'));
/** Words a preposition بِ, لِ or كَ may be written onto (بهذا, لهذه, كذلك is listed whole). */
const DEMONSTRATIVES = new Set(['هذا', 'هذه', 'ذلك', 'تلك', 'هؤلاء']);
/** The one-letter conjunctions and prepositions written onto a word, each with its consonant and vowel. */
export const PROCLITICS: Readonly<Record<string, { consonant: string; vowel: string }>> = {
  و: { consonant: 'w', vowel: 'a' },
  ف: { consonant: 'f', vowel: 'a' },
  ب: { consonant: 'b', vowel: 'i' },
  ل: { consonant: 'l', vowel: 'i' },
  ك: { consonant: 'k', vowel: 'a' },
};

const slots = (s: string): string[][] =>
  s.split(' ').map((slot) => slot.split('|').map((alt) => (alt === '∅' ? '' : alt)));

/**
 * The lattice of an unvowelled function word (plain letters, as arabicPlain gives them), with a conjunction
 * or a preposition written onto it; null for any other word. After a prefix the article's alef is not
 * spoken (وَالَّذِي = wa-llaðī).
 */
export function functionWordLattice(plain: string): string[][] | null {
  const whole = WORDS[plain];
  if (whole) return slots(whole);
  const head = plain[0] ?? '';
  const rest = plain.slice(1);
  const prefix = PROCLITICS[head];
  if (!prefix || !WORDS[rest]) return null;
  if ('وف'.includes(head) ? !CONJOINED.has(rest) : !DEMONSTRATIVES.has(rest)) return null;
  const word = WORDS[rest].replace(/^ʔ\|∅ a\|∅ /, '');
  return slots(`${prefix.consonant} ${prefix.vowel} ${word}`);
}
