// Route guards, used as onRequest hooks. Each authenticated request checks its session row, so a
// revoked session's access tokens stop working at once, not when they expire.
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../context.ts';
import { createError } from '../errors.ts';
import { findSessionUser } from '../db/sessions.ts';
import { isApiToken, verifyApiToken } from '../accounts/api-tokens.ts';

export async function authenticate(request: FastifyRequest): Promise<AuthContext> {
  if (request.auth) return request.auth;
  const header = request.headers.authorization;
  if (!header) throw createError('not_authenticated');
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m) throw createError('token_invalid');
  const deps = request.server.deps;
  if (isApiToken(m[1]!)) {
    const found = await verifyApiToken(deps, m[1]!);
    if (!found) throw createError('token_invalid');
    request.auth = { user: found.user, sessionId: `api-token:${found.tokenId}`, apiTokenId: found.tokenId };
    return request.auth;
  }
  const claims = await deps.tokens.verifyAccess(m[1]!);
  if (!claims) throw createError('token_invalid');
  const user = await findSessionUser(deps.db, claims.sid, claims.sub, deps.clock.now().toISOString());
  if (!user) throw createError('token_invalid');
  request.auth = { user, sessionId: claims.sid, apiTokenId: null };
  return request.auth;
}

/** Signed in, approved or not: the waiting list, the profile read, data export and deletion. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  await authenticate(request);
}

/** Everything of the product itself needs an approved account (spec section 6). */
export async function requireApproved(request: FastifyRequest): Promise<void> {
  const { user } = await authenticate(request);
  if (user.role === 'admin' || user.status === 'approved') return;
  throw createError(user.status === 'rejected' ? 'account_rejected' : 'awaiting_approval');
}

/**
 * Signed in with a session, not a personal API token: what would let a leaked token take the account
 * over or hide itself (the password, the account's deletion, the sessions list).
 */
export async function requireSession(request: FastifyRequest): Promise<void> {
  const { apiTokenId } = await authenticate(request);
  if (apiTokenId) throw createError('session_required');
}

/** Approved and signed in with a session, not a personal API token (token management itself). */
export async function requireApprovedSession(request: FastifyRequest): Promise<void> {
  await requireApproved(request);
  if (request.auth!.apiTokenId) throw createError('session_required');
}

/**
 * An administrator signed in with a session. A personal API token never acts as an administrator: a
 * leaked admin token must not approve, reject, set quotas, or run and cancel other users' jobs.
 */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  const { user, apiTokenId } = await authenticate(request);
  if (user.role !== 'admin') throw createError('admin_required');
  if (apiTokenId) throw createError('session_required');
}

export function auth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw createError('not_authenticated');
  return request.auth;
}

export function clientInfo(request: FastifyRequest): { userAgent: string | null; ip: string | null } {
  const ua = request.headers['user-agent'];
  return { userAgent: typeof ua === 'string' ? ua : null, ip: request.ip ?? null };
}
