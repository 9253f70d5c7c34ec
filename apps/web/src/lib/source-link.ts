// AGPL-3.0 §13: every page offers the source code of the running version. The server says where
// (source_url in GET /api/config/): SOURCE_URL when the deployment sets one, else its own tarball.
import { SOURCE_PATH } from '@tazamun/contracts/auth';
import { usePublicConfig } from './api/get-public-config.ts';
import { apiUrl } from './api-client.ts';

export interface SourceLink {
  href: string;
  /** an address outside this deployment (a repository); otherwise the server's .tar.gz */
  external: boolean;
  /** the anchor's attributes besides href: a new tab for a repository, a download for the tarball */
  anchor: { target: '_blank'; rel: string } | { download: true };
}

export function sourceLinkOf(sourceUrl: string | undefined): SourceLink {
  const url = sourceUrl ?? SOURCE_PATH;
  return url.startsWith('/')
    ? { href: apiUrl(url), external: false, anchor: { download: true } }
    : { href: url, external: true, anchor: { target: '_blank', rel: 'noopener noreferrer' } };
}

/** Before the config has loaded (or if it fails), the server's own tarball. */
export function useSourceLink(): SourceLink {
  return sourceLinkOf(usePublicConfig().data?.source_url);
}
