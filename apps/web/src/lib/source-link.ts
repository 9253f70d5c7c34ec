// AGPL-3.0 §13: every page offers the source code of the running version. The server says where
// (source_url in GET /api/config/): SOURCE_URL when the deployment sets one, else its own tarball.
import { usePublicConfig } from './config.ts';
import { apiUrl } from './api-client.ts';

export const DEFAULT_SOURCE_PATH = '/api/source/';

export interface SourceLink {
  href: string;
  /** an address outside this deployment (a repository); otherwise the server's .tar.gz */
  external: boolean;
}

export function sourceLinkOf(sourceUrl: string | undefined): SourceLink {
  const url = sourceUrl ?? DEFAULT_SOURCE_PATH;
  return url.startsWith('/') ? { href: apiUrl(url), external: false } : { href: url, external: true };
}

/** Before the config has loaded (or if it fails), the server's own tarball. */
export function useSourceLink(): SourceLink {
  return sourceLinkOf(usePublicConfig().data?.source_url);
}
