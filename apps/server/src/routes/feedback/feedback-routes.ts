import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Feedback, FeedbackRequest } from '@tazamun/contracts/auth';
import { FIELD_MESSAGES, FieldErrorCollector } from '../../errors.ts';
import { insertFeedback } from '../../db/feedback.ts';
import { auth, clientInfo, requireUser } from '../../plugins/auth-guard.ts';

const MESSAGE_MAX = 5000;

export const feedbackRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  app.post(
    '/',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: deps.config.authRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags: ['feedback'],
        summary: 'Send a bug report, suggestion or question',
        body: FeedbackRequest,
        response: { 201: z.object({ feedback: Feedback }) },
      },
    },
    async (request, reply) => {
      const { user } = auth(request);
      const errors = new FieldErrorCollector();
      const message = request.body.message.trim();
      if (message === '') errors.add('message', FIELD_MESSAGES.blank);
      else if (message.length > MESSAGE_MAX) errors.add('message', FIELD_MESSAGES.tooLong(MESSAGE_MAX));
      errors.throwIfAny();
      const row = {
        id: randomUUID(),
        user_id: user.id,
        type: request.body.type,
        subject: request.body.subject?.trim() || null,
        message,
        user_agent: clientInfo(request).userAgent,
        created_at: deps.clock.now().toISOString(),
      };
      await insertFeedback(deps.db, row);
      return reply.code(201).send({
        feedback: {
          id: row.id,
          user_id: row.user_id,
          user_email: user.email,
          type: row.type,
          subject: row.subject,
          message: row.message,
          created_at: row.created_at,
        },
      });
    },
  );
};
