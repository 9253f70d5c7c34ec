// `node --import <this file>`: records which of the optional back ends' packages a process loads, for
// the lazy-loading test (lazy-deps.test.ts) and `npm run bench:platform`. Every module resolved into
// one of the watched packages appends its package name to the file named by TAZAMUN_MODULE_TRACE.
import { register } from 'node:module';

if (process.env.TAZAMUN_MODULE_TRACE) register('./module-trace-hooks.mjs', import.meta.url);
