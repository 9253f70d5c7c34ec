// The account's own rights: deleting it with everything it owns, exporting a copy of its data, and
// resetting a forgotten password through an e-mailed token.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import yazl from 'yazl';
import { z } from 'zod';
import { DeleteAccountRequest, PasswordResetConfirm, PasswordResetRequest } from '@tazamun/contracts/auth';
import { confirmPasswordReset, deleteAccount, requestPasswordReset } from '../../commands/accounts.ts';
import { presentUser } from '../../accounts/present-user.ts';
import { describeDevice } from '../../accounts/sessions.ts';
import { presentApiToken } from '../../accounts/api-tokens.ts';
import { listUserAlignments } from '../../db/alignments.ts';
import { listApiTokens } from '../../db/api-tokens.ts';
import { listLexicon } from '../../db/lexicon.ts';
import {
  listUserModels,
  listUserProjects,
  listUserRevisions,
  listUserShares,
} from '../../db/personal-data.ts';
import { listFeedback } from '../../db/feedback.ts';
import { getPreferences } from '../../db/preferences.ts';
import { listUserSessions } from '../../db/sessions.ts';
import { BODY_LIMITS } from '../../reliability/body-limits.ts';
import { auth, requireSession, requireUser } from '../../plugins/auth-guard.ts';

const Detail = z.object({ detail: z.string() });

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const limited = { rateLimit: { max: deps.config.authRateLimitPerMinute, timeWindow: '1 minute' } };

  app.delete(
    '/account/',
    {
      bodyLimit: BODY_LIMITS.credentials,
      onRequest: requireSession,
      schema: {
        tags: ['account'],
        summary: 'Delete the account, its rows and its files (password + SUPPRIMER / DELETE / حذف)',
        body: DeleteAccountRequest,
        response: { 200: Detail },
      },
    },
    async (request) => {
      await deleteAccount(deps, auth(request).user, request.body);
      return { detail: 'Account deleted.' };
    },
  );

  app.get(
    '/export/',
    {
      onRequest: requireUser,
      schema: {
        tags: ['account'],
        summary: 'Personal data export: a zip of JSON files and the user’s files',
      },
    },
    async (request, reply) => {
      const { user, sessionId, apiTokenId } = auth(request);
      const now = deps.clock.now();
      const json = (v: unknown) => Buffer.from(`${JSON.stringify(v, null, 2)}\n`);
      const zip = new yazl.ZipFile();
      const mtime = now;
      zip.addBuffer(json(await presentUser(deps, user)), 'profile.json', { mtime });
      // A personal API token cannot list sessions or tokens (requireSession): its export leaves out what
      // it could not read otherwise (session ids, addresses, browsers; token names and prefixes).
      if (!apiTokenId) {
        const sessions = await listUserSessions(deps.db, user.id, now.toISOString());
        zip.addBuffer(
          json(
            sessions.map((s) => ({
              id: s.id,
              device: describeDevice(s.user_agent),
              user_agent: s.user_agent,
              ip: s.ip,
              created_at: s.created_at,
              last_used_at: s.last_used_at,
              expires_at: s.expires_at,
              current: s.id === sessionId,
            })),
          ),
          'sessions.json',
          { mtime },
        );
      }
      zip.addBuffer(json(await getPreferences(deps.db, user.id)), 'preferences.json', { mtime });
      zip.addBuffer(json(await listFeedback(deps.db, user.id)), 'feedback.json', { mtime });
      zip.addBuffer(json(await listUserAlignments(deps.db, user.id)), 'alignments.json', { mtime });
      zip.addBuffer(json(await listUserProjects(deps.db, user.id)), 'projects.json', { mtime });
      zip.addBuffer(json(await listUserModels(deps.db, user.id)), 'models.json', { mtime });
      zip.addBuffer(json(await listUserRevisions(deps.db, user.id)), 'revisions.json', { mtime });
      zip.addBuffer(json(await listUserShares(deps.db, user.id)), 'shares.json', { mtime });
      if (!apiTokenId)
        zip.addBuffer(json((await listApiTokens(deps.db, user.id)).map(presentApiToken)), 'api-tokens.json', {
          mtime,
        });
      zip.addBuffer(
        json(
          (await listLexicon(deps.db, user.id)).map((e) => ({
            language: e.language,
            word: e.word,
            ipa: e.ipa,
            created_at: e.created_at,
            updated_at: e.updated_at,
          })),
        ),
        'lexicon.json',
        { mtime },
      );
      // Opened one at a time as the zip reaches them, so a big account never holds many streams open.
      for (const f of await deps.files.list(user.id))
        zip.addReadStreamLazy(`files/${f.path}`, { mtime, size: f.size }, (cb) => {
          deps.files.store.get(f.key).then(
            (stream) => cb(null, stream),
            (err: unknown) => cb(err, null as never),
          );
        });
      zip.end();
      const stamp = now.toISOString().slice(0, 10);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="tazamun-export-${stamp}.zip"`)
        .send(zip.outputStream);
    },
  );

  app.post(
    '/password-reset/',
    {
      bodyLimit: BODY_LIMITS.credentials,
      config: limited,
      schema: {
        tags: ['account'],
        security: [],
        summary: 'E-mail a reset link; always 200 so it reveals nothing about the address',
        body: PasswordResetRequest,
        response: { 200: Detail },
      },
    },
    async (request) => {
      await requestPasswordReset(deps, request.body.email);
      return { detail: 'If an account exists for this address, a reset link has been sent.' };
    },
  );

  app.post(
    '/password-reset/confirm/',
    {
      bodyLimit: BODY_LIMITS.credentials,
      config: limited,
      schema: {
        tags: ['account'],
        security: [],
        summary: 'Set a new password with the e-mailed token; every session is revoked',
        body: PasswordResetConfirm,
        response: { 200: Detail },
      },
    },
    async (request) => {
      await confirmPasswordReset(deps, request.body);
      return { detail: 'Password has been reset. Please sign in.' };
    },
  );
};
