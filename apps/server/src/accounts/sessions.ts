// Sign-in sessions: one row per device, its refresh token rotating on every use. A refresh token that
// was already rotated away and comes back means it was copied, so the whole session is revoked.
import { randomUUID } from 'node:crypto';
import type { Tokens } from '@tazamun/contracts/auth';
import type { AppDeps } from '../context.ts';
import { createError } from '../errors.ts';
import type { UserRow } from '../db/schema.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  findSessionByRefreshHash,
  findSessionIdOfUsedToken,
  insertSession,
  rotateRefresh,
} from '../db/sessions.ts';
import { newOpaqueToken, sha256 } from './tokens.ts';

export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

function ttl(deps: AppDeps, rememberMe: boolean): number {
  return rememberMe ? deps.config.rememberMeTtlMs : deps.config.refreshTokenTtlMs;
}

export async function openSession(
  deps: AppDeps,
  user: UserRow,
  rememberMe: boolean,
  client: ClientInfo,
): Promise<{ tokens: Tokens; sessionId: string }> {
  const now = deps.clock.now();
  // Expired sessions of this user are dead weight; signing in is a cheap moment to drop them.
  await deleteExpiredSessions(deps.db, user.id, now.toISOString());
  const id = randomUUID();
  const refresh = newOpaqueToken();
  await insertSession(deps.db, {
    id,
    user_id: user.id,
    refresh_hash: sha256(refresh),
    remember_me: rememberMe ? 1 : 0,
    user_agent: client.userAgent?.slice(0, 512) ?? null,
    ip: client.ip,
    created_at: now.toISOString(),
    last_used_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttl(deps, rememberMe)).toISOString(),
  });
  const access = await deps.tokens.signAccess({ sub: user.id, sid: id });
  return { tokens: { access, refresh }, sessionId: id };
}

export async function refreshSession(deps: AppDeps, refresh: string): Promise<Tokens> {
  const now = deps.clock.now();
  const hash = sha256(refresh);
  const session = await findSessionByRefreshHash(deps.db, hash);
  if (!session) {
    const reusedIn = await findSessionIdOfUsedToken(deps.db, hash);
    if (reusedIn) {
      await deleteSession(deps.db, reusedIn);
      throw createError('token_reused');
    }
    throw createError('token_invalid');
  }
  if (session.expires_at <= now.toISOString()) {
    await deleteSession(deps.db, session.id);
    throw createError('token_invalid');
  }
  const next = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + ttl(deps, session.remember_me === 1)).toISOString();
  const rotated = await rotateRefresh(deps.db, session, sha256(next), now.toISOString(), expiresAt);
  if (!rotated) {
    // Two refreshes raced with the same token: only one can be the owner's.
    await deleteSession(deps.db, session.id);
    throw createError('token_reused');
  }
  const access = await deps.tokens.signAccess({ sub: session.user_id, sid: session.id });
  return { access, refresh: next };
}

/** Revokes the session a refresh token (current or already rotated) belongs to. */
export async function closeSessionByRefresh(deps: AppDeps, refresh: string): Promise<boolean> {
  const hash = sha256(refresh);
  const session = await findSessionByRefreshHash(deps.db, hash);
  const id = session?.id ?? (await findSessionIdOfUsedToken(deps.db, hash));
  if (!id) return false;
  return (await deleteSession(deps.db, id)) > 0;
}

/** "Firefox on Linux" from a user agent; good enough for a list of one's own devices. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : /curl\//.test(ua)
              ? 'curl'
              : null;
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iOS/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? ua.slice(0, 60);
}
