// GET /api/source/: the Corresponding Source of the running version (AGPL-3.0 §13). With SOURCE_URL
// set, a redirect there; otherwise a gzipped tarball of this tree (source-archive.ts). The web app finds
// the link in GET /api/config/ (source_url).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { APP_VERSION } from '@tazamun/contracts/limits';
import { createError } from '../../errors.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { sourceFiles, streamSourceArchive } from './source-archive.ts';

export const SOURCE_FILE_NAME = 'tazamun-source.tar.gz';

// Packing costs a tar and a gzip of the tree (a second of CPU); a few per minute and address is plenty.
const PER_MINUTE = 10;

export interface SourceRouteOptions {
  /** the tree to pack; the checkout the server runs from by default */
  root?: string;
}

export const sourceRoutes: FastifyPluginAsyncZod<SourceRouteOptions> = async (app, options) => {
  const config = app.deps.config;
  const root = options.root ?? PROJECT_ROOT;
  app.get(
    '/',
    {
      config: { rateLimit: { max: PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['system'],
        security: [],
        summary:
          'Source code of the running version (AGPL-3.0-or-later): a redirect to SOURCE_URL when set, else a .tar.gz of this tree',
        produces: ['application/gzip'],
      },
    },
    async (request, reply) => {
      if (config.sourceUrl) return reply.redirect(config.sourceUrl, 302);
      // DATA_DIR (database, secret, user files) and a custom WEB_DIST stay out even inside the tree.
      const exclude = [config.dataDir, ...(config.webDist ? [config.webDist] : [])];
      let stream;
      try {
        const { files, origin } = await sourceFiles(root, exclude);
        if (origin === 'walk')
          request.log.warn(
            { root },
            'source archive: no git work tree here, packing the allow-listed folders',
          );
        stream = await streamSourceArchive(root, files, `tazamun-${APP_VERSION.replace(/^v/, '')}`);
      } catch (err) {
        request.log.error({ err }, 'source archive failed');
        throw createError('internal_error');
      }
      stream.on('error', (err) => request.log.error({ err }, 'source archive cut short'));
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="${SOURCE_FILE_NAME}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
};
