// The shared evaluation set (../shared/eval next to the checkout) from any package or worktree: the
// nearest ancestor folder with a shared/eval beside it. Tests that need it fail loudly without it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function evalDir(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'eval');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir)
      throw new Error(`no shared/eval folder above ${from}: the shared eval set must be present`);
  }
}
