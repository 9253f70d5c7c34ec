// The OpenAPI description, made from the routes' zod schemas, and its reference page at /docs.
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { APP_VERSION } from '@tazamun/contracts/limits';
import { referenceUiOptions } from '../docs/reference-theme.ts';

export async function registerApiReference(app: FastifyInstance, webDist: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Tazamun API',
        version: APP_VERSION,
        description:
          'The Tazamun alignment platform: accounts and sessions, uploads and alignment jobs, results, ' +
          'corrections (revisions), exports and videos, projects and batches, the personal lexicon, share ' +
          'links, demos and administration.\n\nErrors have the shape ' +
          '`{code, detail, <field>: [messages], non_field_errors}`, with `detail` in the language of ' +
          '`?lang=` or `Accept-Language`. Authenticate with `Authorization: Bearer <token>` (an access ' +
          'token from `/api/auth/login/`, or a personal API token from the profile page).\n\n' +
          '[Back to Tazamun](/)',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // Swagger UI loads only same-origin scripts, so the app-wide CSP covers it unchanged.
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { validatorUrl: null, docExpansion: 'none', filter: true, tryItOutEnabled: false },
    ...referenceUiOptions(webDist),
  });
}
