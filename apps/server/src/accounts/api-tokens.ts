// Personal API tokens for scripts: `tzp_` + 32 random bytes, shown once, stored as a SHA-256. They act
// for their user like a session's access token, but they cannot manage tokens (a leaked token must not
// be able to mint successors or hide itself) and they are checked against the database on every request,
// so a revoked token stops working at once.
import { randomUUID } from 'node:crypto';
import { API_TOKEN_PREFIX } from '@tazamun/contracts/api-tokens';
import type { ApiToken, ApiTokenCreate, ApiTokenCreated } from '@tazamun/contracts/api-tokens';
import type { AppDeps } from '../context.ts';
import { findApiTokenUser, insertApiToken, touchApiToken } from '../db/api-tokens.ts';
import type { ApiTokenRow, UserRow } from '../db/schema.ts';
import { newOpaqueToken, sha256 } from './tokens.ts';

const DAY_MS = 86_400_000;
/** last_used_at is written at most this often per token: a script's every request need not write. */
const TOUCH_EVERY_MS = 60_000;
const SHOWN_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 6;

export function isApiToken(bearer: string): boolean {
  return bearer.startsWith(API_TOKEN_PREFIX);
}

export function presentApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
  };
}

export async function createApiToken(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  userId: string,
  body: ApiTokenCreate,
): Promise<ApiTokenCreated> {
  const token = `${API_TOKEN_PREFIX}${newOpaqueToken()}`;
  const now = deps.clock.now();
  const row: ApiTokenRow = {
    id: randomUUID(),
    user_id: userId,
    name: body.name,
    token_hash: sha256(token),
    prefix: token.slice(0, SHOWN_PREFIX_LENGTH),
    created_at: now.toISOString(),
    expires_at: body.expires_in_days
      ? new Date(now.getTime() + body.expires_in_days * DAY_MS).toISOString()
      : null,
    last_used_at: null,
  };
  await insertApiToken(deps.db, row);
  return { ...presentApiToken(row), token };
}

/** The token's user, or null for an unknown, revoked or expired token. */
export async function verifyApiToken(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  token: string,
): Promise<{ tokenId: string; user: UserRow } | null> {
  const now = deps.clock.now();
  const found = await findApiTokenUser(deps.db, sha256(token), now.toISOString());
  if (!found) return null;
  if (!found.lastUsedAt || now.getTime() - Date.parse(found.lastUsedAt) >= TOUCH_EVERY_MS)
    await touchApiToken(deps.db, found.tokenId, now.toISOString());
  return { tokenId: found.tokenId, user: found.user };
}
