// Downloads a model from the Hugging Face hub with the hub's URL scheme
// `<endpoint>/<repo>/resolve/<revision>/<path>`. For LFS files the hub answers with a redirect to its CDN
// and puts the file's sha256 in `X-Linked-Etag` and its size in `X-Linked-Size`; for small git files the
// `ETag` is the git blob sha1. We read those headers from the first (unfollowed) response, download to
// `<file>.part`, resume an interrupted `.part` with an HTTP Range request, verify the checksum (a pinned
// sha256 first, else the hub's), and only then move the file into place. A failed checksum removes the
// partial file, so the next pull starts clean.
import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { MANIFEST, MODELS, hubEndpoint, modelsDir } from './registry.ts';
import type { Manifest, ModelFile, ModelId, Variant } from './registry.ts';

export type PullErrorCode = 'offline' | 'http' | 'checksum' | 'interrupted';

export class ModelPullError extends Error {
  constructor(
    readonly code: PullErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ModelPullError';
  }
}

export interface PullProgress {
  file: string;
  received: number;
  total: number | null;
  /** bytes that were already on disk from an earlier, interrupted pull */
  resumedFrom: number;
}

export interface PullOptions {
  variant?: Variant;
  env?: NodeJS.ProcessEnv;
  onProgress?: (p: PullProgress) => void;
  /** re-download files that are already present */
  force?: boolean;
}

interface Remote {
  url: string;
  size: number | null;
  sha256: string | null;
  gitSha1: string | null;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ECONNRESET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function networkCode(err: unknown): string | null {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

async function request(url: string, init: RequestInit, endpoint: string): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = networkCode(err);
    if (code) {
      throw new ModelPullError(
        'offline',
        `cannot reach the model hub at ${endpoint} (${code}). Check the network connection, or set ` +
          'TAZAMUN_HF_ENDPOINT to a reachable mirror, or copy the model files by hand (see docs/engines.md).',
      );
    }
    throw err;
  }
}

const unquote = (s: string | null): string | null =>
  s ? s.replace(/^W\//, '').replace(/"/g, '').trim() : null;

/** HEAD without following redirects: the hub puts the checksum and size on its first answer. */
async function describe(url: string, endpoint: string): Promise<Remote | null> {
  let u = url;
  for (let hop = 0; hop < 5; hop++) {
    const res = await request(u, { method: 'HEAD', redirect: 'manual' }, endpoint);
    if (res.status === 404) return null;
    const linked = unquote(res.headers.get('x-linked-etag'));
    const etag = unquote(res.headers.get('etag'));
    const linkedSize = res.headers.get('x-linked-size');
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      if (linked || linkedSize) {
        return {
          url: new URL(location, u).toString(),
          size: linkedSize ? Number(linkedSize) : null,
          sha256: linked && /^[0-9a-f]{64}$/i.test(linked) ? linked.toLowerCase() : null,
          gitSha1: null,
        };
      }
      u = new URL(location, u).toString();
      continue;
    }
    if (!res.ok) throw new ModelPullError('http', `${url}: the hub answered ${res.status} ${res.statusText}`);
    const len = res.headers.get('content-length');
    return {
      url: u,
      size: linkedSize ? Number(linkedSize) : len ? Number(len) : null,
      sha256:
        linked && /^[0-9a-f]{64}$/i.test(linked)
          ? linked.toLowerCase()
          : etag && /^[0-9a-f]{64}$/i.test(etag)
            ? etag.toLowerCase()
            : null,
      gitSha1: !linked && etag && /^[0-9a-f]{40}$/i.test(etag) ? etag.toLowerCase() : null,
    };
  }
  throw new ModelPullError('http', `${url}: too many redirects`);
}

async function hashFile(path: string, into: ReturnType<typeof createHash>[]): Promise<void> {
  for await (const chunk of createReadStream(path)) for (const h of into) h.update(chunk as Buffer);
}

/** Downloads one file into `dest`, resuming `dest.part`; returns its size and sha256. */
export async function downloadFile(
  url: string,
  dest: string,
  opts: { endpoint: string; sha256?: string; onProgress?: (p: PullProgress) => void; label: string },
): Promise<{ size: number; sha256: string } | null> {
  const remote = await describe(url, opts.endpoint);
  if (!remote) return null;
  mkdirSync(dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  let have = existsSync(part) ? statSync(part).size : 0;
  if (remote.size !== null && have > remote.size) {
    rmSync(part);
    have = 0;
  }
  const headers: Record<string, string> = {};
  if (have > 0) headers.range = `bytes=${have}-`;
  const res = await request(remote.url, { headers, redirect: 'follow' }, opts.endpoint);
  if (res.status === 416 && remote.size === have) {
    // The part is already whole: only the verification and the move were missing.
  } else if (!res.ok || !res.body) {
    throw new ModelPullError('http', `${url}: the hub answered ${res.status} ${res.statusText}`);
  } else if (have > 0 && res.status !== 206) {
    // The server ignored the range: start over.
    have = 0;
  }
  const sha256 = createHash('sha256');
  const sha1 = createHash('sha1');
  if (remote.gitSha1 && remote.size !== null) sha1.update(`blob ${remote.size}\0`);
  if (have > 0) await hashFile(part, [sha256, sha1]);
  let received = have;
  const total = remote.size;
  if (res.status !== 416 && res.body) {
    // Each chunk is hashed, counted and written in turn; when the transfer breaks, what was received is
    // still flushed to the part file before the error is reported, so a resume asks only for the rest
    // and the message says how much was kept.
    const out = createWriteStream(part, { flags: have > 0 ? 'a' : 'w' });
    let failed: unknown = null;
    out.on('error', (err) => (failed ??= err));
    try {
      for await (const chunk of Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>)) {
        if (failed) break;
        const bytes = chunk as Uint8Array;
        sha256.update(bytes);
        sha1.update(bytes);
        received += bytes.length;
        opts.onProgress?.({ file: opts.label, received, total, resumedFrom: have });
        // rejects if the file fails while it waits (the error is emitted later than this call)
        if (!out.write(bytes)) await once(out, 'drain');
      }
    } catch (err) {
      failed ??= err;
    }
    // what was written reaches the file, then the file is closed (also after an error)
    if (!out.destroyed) out.end();
    if (!out.closed) await once(out, 'close').catch((err: unknown) => (failed ??= err));
    if (failed) {
      const kept = existsSync(part) ? statSync(part).size : 0;
      throw new ModelPullError(
        'interrupted',
        `download of ${opts.label} was interrupted after ${kept} bytes (${(failed as Error).message}); ` +
          'run the same command again to resume',
      );
    }
  }
  const size = statSync(part).size;
  const digest = sha256.digest('hex');
  const expected = opts.sha256 ?? remote.sha256;
  const fail = (why: string): never => {
    rmSync(part, { force: true });
    throw new ModelPullError('checksum', `${opts.label}: ${why}; the partial file was removed, pull again`);
  };
  if (total !== null && size !== total) fail(`size ${size} bytes, expected ${total}`);
  if (expected && digest !== expected) fail(`sha256 ${digest}, expected ${expected}`);
  if (!expected && remote.gitSha1 && sha1.digest('hex') !== remote.gitSha1)
    fail('git blob sha1 does not match the ETag');
  renameSync(part, dest);
  return { size, sha256: digest };
}

export interface PullResult {
  dir: string;
  manifest: Manifest;
  downloaded: string[];
  skipped: string[];
}

export async function pullModel(id: ModelId, options: PullOptions = {}): Promise<PullResult> {
  const spec = MODELS[id];
  const env = options.env ?? process.env;
  const endpoint = hubEndpoint(env);
  const variant = options.variant ?? spec.defaultVariant;
  const dir = join(modelsDir(env), id);
  const files = spec.files.filter((f: ModelFile) => !f.variant || f.variant === variant);
  const manifest: Manifest = {
    id,
    repo: spec.repo,
    revision: spec.revision,
    variant,
    endpoint,
    pulledAt: new Date().toISOString(),
    files: [],
  };
  const downloaded: string[] = [];
  const skipped: string[] = [];
  for (const f of files) {
    const dest = join(dir, f.path);
    const url = `${endpoint}/${spec.repo}/resolve/${encodeURIComponent(spec.revision)}/${f.path}`;
    if (existsSync(dest) && !options.force) {
      // Already verified by an earlier pull (files only reach their final name after verification).
      const h = createHash('sha256');
      await hashFile(dest, [h]);
      manifest.files.push({ path: f.path, size: statSync(dest).size, sha256: h.digest('hex') });
      skipped.push(f.path);
      continue;
    }
    const got = await downloadFile(url, dest, {
      endpoint,
      sha256: f.sha256,
      onProgress: options.onProgress,
      label: f.path,
    });
    if (!got) {
      if (f.optional) continue;
      throw new ModelPullError('http', `${url}: not found on the hub (404)`);
    }
    manifest.files.push({ path: f.path, size: got.size, sha256: got.sha256 });
    downloaded.push(f.path);
  }
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, manifest, downloaded, skipped };
}
