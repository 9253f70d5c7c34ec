// The common-password list of zxcvbn (49k entries, MIT, shipped in @zxcvbn-ts/language-common),
// loaded once on first use. Django's own list has 20k entries from the same kind of leak corpora.
import { createRequire } from 'node:module';

let cache: Set<string> | null = null;

export function commonPasswords(): Set<string> {
  if (!cache) {
    const require = createRequire(import.meta.url);
    const list = require('@zxcvbn-ts/language-common/src/passwords.json') as string[];
    cache = new Set(list.map((p) => p.toLowerCase().trim()));
  }
  return cache;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase().trim());
}
