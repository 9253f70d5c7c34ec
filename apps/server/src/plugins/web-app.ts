// Serves the built single-page app: real files from apps/web/dist, index.html for any other GET that
// is not an API or docs path, and a short note when the bundle has not been built.
// `npm run build` writes brotli and gzip copies beside the assets (scripts/precompress.mjs); they are
// sent as they are to a browser that accepts them (Vary: Accept-Encoding). Vite names its assets after
// their content (`assets/index-xDmPintB.js`), so those are cached for a year and never revalidated;
// index.html, which names the current ones, is revalidated on every visit; anything else for an hour.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createError } from '../errors.ts';

const API_LIKE = /^\/(api|docs)(\/|$)/;
/** vite's content-hashed file names: `name-<8+ url-safe characters>.ext` under assets/ */
const HASHED = /[/\\]assets[/\\][^/\\]+-[\w-]{8,}\.[a-z0-9]+(\.(br|gz))?$/i;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
export const HOUR = 'public, max-age=3600';

export function cacheControlFor(path: string): string {
  if (HASHED.test(path)) return IMMUTABLE;
  if (/^index\.html(\.(br|gz))?$/.test(basename(path))) return REVALIDATE;
  return HOUR;
}

export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const hasBundle = existsSync(join(distDir, 'index.html'));
  if (hasBundle) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => void reply.header('cache-control', cacheControlFor(path)),
    });
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
            '(<code>npm run build</code>). API reference: <a href="/docs">/docs</a>.</p>',
        );
    }
    // Existing files have their own routes (wildcard: false); a missing asset must 404, not become HTML.
    if (/\.[a-z0-9]{1,8}$/i.test(path)) throw createError('not_found');
    return reply.sendFile('index.html');
  };
  // the web app's pages, not API: kept out of the OpenAPI reference
  app.get('/', { schema: { hide: true } }, spa);
  app.get('/*', { schema: { hide: true } }, spa);
}
