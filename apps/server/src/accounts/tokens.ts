// Access tokens are short-lived HS256 JWTs naming the user (sub) and the session (sid); refresh tokens
// are opaque random strings the database knows only by their SHA-256.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from '../clock.ts';

export interface AccessClaims {
  sub: string;
  sid: string;
}

export interface StreamTicketClaims {
  alignmentId: string;
  /** the session id, or `api-token:<id>` for a personal API token (AuthContext.sessionId) */
  sid: string;
  sub: string;
  /** unix seconds */
  exp: number;
}

export class TokenService {
  private readonly key: Uint8Array;
  // A key of its own for signed audio URLs, derived from the secret, so a URL signature can never
  // be replayed as (or be computed from) a JWT signature.
  private readonly audioKey: Buffer;
  // and one for progress-stream tickets, so neither kind of signature can stand for the other
  private readonly ticketKey: Buffer;
  constructor(
    secret: string,
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
    this.audioKey = createHmac('sha256', secret).update('tazamun:signed-audio-url:v1').digest();
    this.ticketKey = createHmac('sha256', secret).update('tazamun:stream-ticket:v1').digest();
  }

  /**
   * A ticket opening one alignment's progress stream until `exp` (unix s), for the session (or API
   * token) `sid` of user `sub`: what EventSource sends in the URL instead of the access token.
   */
  signStreamTicket(t: StreamTicketClaims): string {
    const body = Buffer.from(JSON.stringify([t.alignmentId, t.sid, t.sub, t.exp])).toString('base64url');
    return `${body}.${createHmac('sha256', this.ticketKey).update(body).digest('base64url')}`;
  }

  /** The ticket's claims when it is ours, unexpired and made for this alignment; null otherwise. */
  verifyStreamTicket(ticket: string, alignmentId: string): StreamTicketClaims | null {
    const dot = ticket.indexOf('.');
    if (dot <= 0 || ticket.length > 1024) return null;
    const body = ticket.slice(0, dot);
    const expected = Buffer.from(createHmac('sha256', this.ticketKey).update(body).digest('base64url'));
    const given = Buffer.from(ticket.slice(dot + 1));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (!Array.isArray(claims) || claims.length !== 4) return null;
    const [id, sid, sub, exp] = claims as unknown[];
    if (
      typeof id !== 'string' ||
      typeof sid !== 'string' ||
      typeof sub !== 'string' ||
      typeof exp !== 'number'
    )
      return null;
    if (id !== alignmentId || exp * 1000 <= this.clock.now().getTime()) return null;
    return { alignmentId: id, sid, sub, exp };
  }

  /** Signature (base64url HMAC-SHA256) letting anyone holding it read one alignment's audio until `exp` (unix s). */
  signAudio(alignmentId: string, exp: number): string {
    return createHmac('sha256', this.audioKey).update(`${alignmentId}\n${exp}`).digest('base64url');
  }

  /** True for a signature made by signAudio for this very id and expiry, while unexpired. */
  verifyAudio(alignmentId: string, exp: string, sig: string): boolean {
    if (!/^\d{1,12}$/.test(exp)) return false;
    if (Number(exp) * 1000 <= this.clock.now().getTime()) return false;
    const expected = Buffer.from(this.signAudio(alignmentId, Number(exp)));
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async signAccess(claims: AccessClaims): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt(now)
      .setExpirationTime(now + Math.max(1, Math.round(this.ttlMs / 1000)))
      .setAudience('tazamun')
      .sign(this.key);
  }

  /** null for anything not a valid, unexpired HS256 token of ours (alg none, forgeries and tokens without exp or iat included). */
  async verifyAccess(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience: 'tazamun',
        // jose checks exp only when present: a token without it would never expire
        requiredClaims: ['exp', 'iat'],
        currentDate: this.clock.now(),
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return { sub: payload.sub, sid: payload.sid };
    } catch {
      return null;
    }
  }
}

export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
