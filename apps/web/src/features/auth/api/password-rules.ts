// The password rules of spec section 5, evaluated as the person types.
import { LIMITS } from '@tazamun/contracts/limits';

export interface PasswordRuleState {
  length: boolean;
  notNumeric: boolean;
  notSimilar: boolean;
  matches: boolean;
}

function tooSimilar(password: string, personal: string[]): boolean {
  const p = password.toLowerCase();
  if (p.length === 0) return false;
  return personal
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v.length >= 3)
    .some((v) => p.includes(v) || v.includes(p));
}

export function passwordRules(
  password: string,
  confirm: string,
  personal: { first_name?: string; last_name?: string; email?: string },
): PasswordRuleState {
  const emailLocal = (personal.email ?? '').split('@')[0] ?? '';
  return {
    length: password.length >= LIMITS.passwordMinLength,
    notNumeric: password.length > 0 && !/^\d+$/.test(password),
    notSimilar:
      password.length > 0 &&
      !tooSimilar(password, [personal.first_name ?? '', personal.last_name ?? '', emailLocal]),
    matches: password.length > 0 && password === confirm,
  };
}
