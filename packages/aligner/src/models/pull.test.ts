// The download code against a local stand-in for the Hugging Face hub on loopback: the hub's URL layout,
// 302 redirects to a CDN path with X-Linked-Etag / X-Linked-Size, git-blob ETags for small files, Range
// requests, a transfer cut mid-way, a wrong checksum and a refused connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelPullError, pullModel } from './pull.ts';
import { availableEngines, chooseEngine, findInstalled, MODELS } from './registry.ts';
import { runModels } from '../cli/models.ts';
import { buildTinyMmsModel, vocabJson } from '@tazamun/aligner/testing/tiny-model';

const REPO = MODELS.mms.repo;

interface Hub {
  endpoint: string;
  log: { method: string; url: string; range?: string }[];
  files: Map<string, Buffer>;
  /**
   * cut the next full CDN transfer of this path after half of it, once the check says the client has
   * kept some of it (a cut after a fixed delay lost the race on a loaded machine: nothing was on disk)
   */
  cutOnce: Map<string, () => boolean>;
  /** advertise this sha256 instead of the real one */
  lie: Map<string, string>;
  close: () => Promise<void>;
}

async function startHub(): Promise<Hub> {
  const files = new Map<string, Buffer>([
    ['config.json', Buffer.from(JSON.stringify({ model_type: 'wav2vec2', vocab_size: 31 }))],
    ['vocab.json', Buffer.from(vocabJson())],
    ['preprocessor_config.json', Buffer.from(JSON.stringify({ do_normalize: true, sampling_rate: 16000 }))],
    ['onnx/model_quantized.onnx', Buffer.concat([Buffer.from(buildTinyMmsModel()), randomBytes(300_000)])],
    ['onnx/model.onnx', Buffer.from(buildTinyMmsModel())],
  ]);
  const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
  const log: Hub['log'] = [];
  const cutOnce = new Map<string, () => boolean>();
  const lie = new Map<string, string>();
  const byHash = new Map<string, string>();
  for (const [p, b] of files) byHash.set(sha256(b), p);
  const server = createServer((req, res) => {
    log.push({ method: req.method!, url: req.url!, range: req.headers.range });
    const prefix = `/${REPO}/resolve/main/`;
    if (req.url!.startsWith(prefix)) {
      const p = decodeURIComponent(req.url!.slice(prefix.length));
      const body = files.get(p);
      if (!body) {
        res.writeHead(404).end('Entry not found');
        return;
      }
      if (p.endsWith('.onnx')) {
        // An LFS file: the hub redirects to its CDN and describes the file in headers of the redirect.
        res.writeHead(302, {
          location: `/cdn/${sha256(body)}`,
          'x-linked-etag': `"${lie.get(p) ?? sha256(body)}"`,
          'x-linked-size': String(body.length),
        });
        res.end();
        return;
      }
      const blob = createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
      res.writeHead(200, { etag: `"${blob}"`, 'content-length': String(body.length) });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (req.url!.startsWith('/cdn/')) {
      const p = byHash.get(req.url!.slice(5))!;
      const body = files.get(p)!;
      const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      const from = m ? Number(m[1]) : 0;
      if (from >= body.length) {
        res.writeHead(416).end();
        return;
      }
      res.writeHead(m ? 206 : 200, {
        'content-length': String(body.length - from),
        ...(m ? { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` } : {}),
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      const kept = cutOnce.get(p);
      if (!m && kept) {
        cutOnce.delete(p);
        res.write(body.subarray(0, body.length >> 1), () => {
          const t0 = Date.now();
          const cut = (): void => {
            if (kept() || Date.now() - t0 > 10_000) res.destroy();
            else setTimeout(cut, 10);
          };
          cut();
        });
        return;
      }
      res.end(body.subarray(from));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    log,
    files,
    cutOnce,
    lie,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function tempEnv(hub: Hub | null, endpoint?: string): NodeJS.ProcessEnv {
  return {
    TAZAMUN_MODELS_DIR: mkdtempSync(join(tmpdir(), 'tz-models-')),
    TAZAMUN_HF_ENDPOINT: endpoint ?? hub!.endpoint,
  };
}

test('pull follows the hub redirect, verifies sha256 and git blob ETags, and installs the quantised model', async (t) => {
  const hub = await startHub();
  t.after(() => hub.close());
  const env = tempEnv(hub);
  t.after(() => rmSync(env.TAZAMUN_MODELS_DIR!, { recursive: true, force: true }));
  assert.equal(findInstalled('mms', env), null);
  assert.equal(availableEngines(env).find((e) => e.id === 'mms')!.available, false);
  const seen: number[] = [];
  const r = await pullModel('mms', { env, onProgress: (p) => seen.push(p.received) });
  assert.deepEqual(r.downloaded.sort(), [
    'config.json',
    'onnx/model_quantized.onnx',
    'preprocessor_config.json',
    'vocab.json',
  ]);
  const dir = join(env.TAZAMUN_MODELS_DIR!, 'mms');
  assert.deepEqual(
    readFileSync(join(dir, 'onnx/model_quantized.onnx')),
    hub.files.get('onnx/model_quantized.onnx'),
  );
  assert.ok(!existsSync(join(dir, 'onnx/model.onnx')), 'the fp32 weights are only pulled on request');
  assert.ok(
    hub.log.some((l) => l.url.startsWith('/cdn/')),
    'the weights came through the redirect',
  );
  assert.ok(seen.length > 0 && seen.at(-1)! >= hub.files.get('onnx/model_quantized.onnx')!.length);
  const inst = findInstalled('mms', env)!;
  assert.equal(inst.variant, 'quantized');
  assert.equal(availableEngines(env).find((e) => e.id === 'mms')!.available, true);
  assert.equal(chooseEngine('auto', 'ara', env).engine, 'mms');
  assert.equal(chooseEngine('auto', 'eng', env).engine, 'hmm');
  // A second pull finds everything in place and downloads nothing.
  const again = await pullModel('mms', { env });
  assert.equal(again.downloaded.length, 0);
});

test('an interrupted transfer resumes with a Range request', async (t) => {
  const hub = await startHub();
  t.after(() => hub.close());
  const env = tempEnv(hub);
  t.after(() => rmSync(env.TAZAMUN_MODELS_DIR!, { recursive: true, force: true }));
  const part = join(env.TAZAMUN_MODELS_DIR!, 'mms', 'onnx/model_quantized.onnx.part');
  hub.cutOnce.set('onnx/model_quantized.onnx', () => existsSync(part) && statSync(part).size > 0);
  let counted = 0;
  let kept = -1;
  await assert.rejects(
    pullModel('mms', {
      env,
      onProgress: (p) => {
        if (p.file.endsWith('model_quantized.onnx')) counted = p.received;
      },
    }),
    (e: unknown) => {
      kept = Number(/interrupted after (\d+) bytes/.exec((e as Error).message)?.[1] ?? -1);
      return e instanceof ModelPullError && e.code === 'interrupted';
    },
  );
  const partial = statSync(part).size;
  const full = hub.files.get('onnx/model_quantized.onnx')!;
  assert.ok(partial > 0 && partial < full.length, `partial file of ${partial} bytes`);
  // every byte received before the cut was kept, and the message says how many
  assert.equal(partial, counted);
  assert.equal(kept, partial);
  const resumed: number[] = [];
  await pullModel('mms', { env, onProgress: (p) => resumed.push(p.resumedFrom) });
  assert.ok(
    hub.log.some((l) => l.range === `bytes=${partial}-`),
    'the second pull asked for the rest only',
  );
  assert.ok(resumed.includes(partial));
  assert.deepEqual(readFileSync(join(env.TAZAMUN_MODELS_DIR!, 'mms', 'onnx/model_quantized.onnx')), full);
  assert.ok(!existsSync(part));
});

test('a checksum mismatch fails and removes the partial file', async (t) => {
  const hub = await startHub();
  t.after(() => hub.close());
  const env = tempEnv(hub);
  t.after(() => rmSync(env.TAZAMUN_MODELS_DIR!, { recursive: true, force: true }));
  hub.lie.set('onnx/model_quantized.onnx', 'ab'.repeat(32));
  await assert.rejects(
    pullModel('mms', { env }),
    (e: unknown) => e instanceof ModelPullError && e.code === 'checksum' && /sha256/.test(e.message),
  );
  const dir = join(env.TAZAMUN_MODELS_DIR!, 'mms', 'onnx');
  assert.ok(!existsSync(join(dir, 'model_quantized.onnx.part')));
  assert.ok(!existsSync(join(dir, 'model_quantized.onnx')));
  assert.equal(findInstalled('mms', env), null);
});

test('a refused connection gives a clear offline message, also through the CLI', async (t) => {
  // Take a free port and close it again, so nothing listens there.
  const hub = await startHub();
  const dead = hub.endpoint;
  await hub.close();
  const env = tempEnv(null, dead);
  t.after(() => rmSync(env.TAZAMUN_MODELS_DIR!, { recursive: true, force: true }));
  await assert.rejects(
    pullModel('mms', { env }),
    (e: unknown) =>
      e instanceof ModelPullError && e.code === 'offline' && /cannot reach the model hub/.test(e.message),
  );
  let err = '';
  const code = await runModels(['pull', 'mms'], {
    stdout: { write: () => true },
    stderr: { write: (s: string) => (err += s) },
    env,
  });
  assert.equal(code, 1);
  assert.match(err, /cannot reach the model hub at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
});

test('the CLI pulls the fp32 variant on request and lists it', async (t) => {
  const hub = await startHub();
  t.after(() => hub.close());
  const env = tempEnv(hub);
  t.after(() => rmSync(env.TAZAMUN_MODELS_DIR!, { recursive: true, force: true }));
  let out = '';
  let err = '';
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env,
  };
  assert.equal(await runModels(['list'], io), 0);
  assert.match(out, /mms\s+missing/);
  assert.equal(await runModels(['pull', 'mms', '--fp32'], io), 0);
  assert.match(err, /onnx\/model\.onnx \[#+\] 100 %/);
  out = '';
  assert.equal(await runModels(['list'], io), 0);
  assert.match(out, /mms\s+installed .*\(fp32\)/);
  assert.equal(findInstalled('mms', env)!.variant, 'fp32');
});
