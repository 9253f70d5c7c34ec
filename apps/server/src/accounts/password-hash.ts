// argon2id with the library's defaults (19 MiB, t=2): the OWASP baseline. A dummy hash is verified for
// unknown e-mails so a login takes as long whether or not the account exists.
import { hash, verify } from '@node-rs/argon2';

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hash('tazamun-timing-equaliser');
  await verifyPassword(await dummy, password);
}
