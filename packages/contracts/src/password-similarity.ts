// The password-similarity rule (Django's UserAttributeSimilarityValidator: difflib's quick_ratio of the
// password against the first name, last name and e-mail and their word parts, refused at 0.7). One rule,
// here, for the server that refuses a password and the web checklist that shows it as the person types,
// so the two never disagree.

export interface PersonalInfo {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
}

const MAX_SIMILARITY = 0.7;
const ATTRIBUTE_LABELS: Record<keyof PersonalInfo, string> = {
  first_name: 'first name',
  last_name: 'last name',
  email: 'email address',
};

/**
 * difflib.SequenceMatcher.quick_ratio(): twice the size of the multiset intersection of characters
 * over the total length. An upper bound of ratio(), and the test Django applies.
 */
export function quickRatio(a: string, b: string): number {
  const total = [...a].length + [...b].length;
  if (total === 0) return 1;
  const avail = new Map<string, number>();
  for (const ch of b) avail.set(ch, (avail.get(ch) ?? 0) + 1);
  let matches = 0;
  for (const ch of a) {
    const n = avail.get(ch) ?? 0;
    if (n > 0) {
      matches += 1;
      avail.set(ch, n - 1);
    }
  }
  return (2 * matches) / total;
}

/** Django skips values so short next to a long password that they cannot be "similar". */
function exceedsMaximumLengthRatio(password: string, value: string): boolean {
  const pwdLen = [...password].length;
  const valueLen = [...value].length;
  return pwdLen >= 10 * valueLen && valueLen < (MAX_SIMILARITY / 2) * pwdLen;
}

export function similarAttribute(password: string, info: PersonalInfo): string | null {
  const pwd = password.toLowerCase();
  for (const key of Object.keys(ATTRIBUTE_LABELS) as (keyof PersonalInfo)[]) {
    const value = info[key];
    if (!value) continue;
    const lower = value.toLowerCase();
    // Python's re.split(r"\W+") on a str: word characters are letters, digits and underscore of any script.
    const parts = [...lower.split(/[^\p{L}\p{M}\p{N}_]+/u), lower];
    for (const part of parts) {
      if (exceedsMaximumLengthRatio(pwd, part)) continue;
      if (quickRatio(pwd, part) >= MAX_SIMILARITY) return ATTRIBUTE_LABELS[key];
    }
  }
  return null;
}
