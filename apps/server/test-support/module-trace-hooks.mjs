// The resolve hook behind module-trace.mjs (it runs on node's hooks thread).
import { appendFileSync } from 'node:fs';

const WATCHED = /\/node_modules\/(bullmq|ioredis|@aws-sdk\/[^/]+)\//;
const seen = new Set();

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const m = WATCHED.exec(resolved.url);
  if (m && !seen.has(m[1])) {
    seen.add(m[1]);
    appendFileSync(process.env.TAZAMUN_MODULE_TRACE, `${m[1]}\n`);
  }
  return resolved;
}
