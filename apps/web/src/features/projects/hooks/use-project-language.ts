// The language a project's recordings are in: the most frequent among them ('' for an empty project).
// The batch panel and the models section start from it; nothing is assumed for an empty project (an
// English corpus dropped into a new project must not be aligned as the account's Arabic).
import { useProjectBatch } from '../api/get-project-batch.ts';

export function useProjectLanguage(projectId: string): string {
  const rows = useProjectBatch(projectId);
  const counts = new Map<string, number>();
  for (const a of rows.data?.results ?? []) counts.set(a.language, (counts.get(a.language) ?? 0) + 1);
  let best = '';
  let n = 0;
  for (const [language, c] of counts) if (c > n) [best, n] = [language, c];
  return best;
}
