// Serves the built single-page app: real files from apps/web/dist, index.html for any other GET that
// is not an API or docs path, and a short note when the bundle has not been built.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createError } from '../errors.ts';

const API_LIKE = /^\/(api|docs)(\/|$)/;

export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const hasBundle = existsSync(join(distDir, 'index.html'));
  if (hasBundle) {
    await app.register(fastifyStatic, { root: distDir, wildcard: false, index: false, maxAge: '1h' });
  }
  const spa = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    // the not-found handler tells a wrong method on a known API path (405) from an unknown path (404)
    if (API_LIKE.test(path)) return reply.callNotFound();
    if (!hasBundle) {
      return reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><meta charset="utf-8"><title>Tazamun API</title>' +
            '<p>The Tazamun API is running. The web app has not been built yet ' +
            '(<code>npm run build -w apps/web</code>). API reference: <a href="/docs">/docs</a>.</p>',
        );
    }
    // Existing files have their own routes (wildcard: false); a missing asset must 404, not become HTML.
    if (/\.[a-z0-9]{1,8}$/i.test(path)) throw createError('not_found');
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };
  // the web app's pages, not API: kept out of the OpenAPI reference
  app.get('/', { schema: { hide: true } }, spa);
  app.get('/*', { schema: { hide: true } }, spa);
}
