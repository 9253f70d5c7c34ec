// The password rules of spec section 5, evaluated as the person types.
import { LIMITS } from '@tazamun/contracts/limits';
import { similarAttribute } from '@tazamun/contracts/password-similarity';

export interface PasswordRuleState {
  length: boolean;
  notNumeric: boolean;
  notSimilar: boolean;
  matches: boolean;
}

export function passwordRules(
  password: string,
  confirm: string,
  personal: { first_name?: string; last_name?: string; email?: string },
): PasswordRuleState {
  return {
    length: password.length >= LIMITS.passwordMinLength,
    notNumeric: password.length > 0 && !/^\d+$/.test(password),
    // the server's own rule (contracts), so the checklist never says "fine" to a password it refuses
    notSimilar: password.length > 0 && similarAttribute(password, personal) === null,
    matches: password.length > 0 && password === confirm,
  };
}
