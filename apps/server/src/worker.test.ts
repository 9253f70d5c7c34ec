// Scale-out shape: an API process that runs no jobs and a separate `worker.ts` process on the same
// DATA_DIR. The worker runs the upload accepted by the API, the API's event stream sees it finish, and
// a cancel sent to the API stops the job running in the worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '@tazamun/server/testing/until';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalClip, longClip, tempDir } from '@tazamun/server/testing/jobs-test-app';
import { API_SERVING, startChild } from '@tazamun/server/testing/child-process';
import { GOOD_PASSWORD } from '@tazamun/server/testing/test-app';

test(
  'npm run worker runs the jobs an API-only process accepts, and obeys its cancel',
  { timeout: 180_000 },
  async (t) => {
    const dataDir = tempDir(t);
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      JWT_SECRET: 'worker-test-secret-that-is-long-enough-0123456789',
      AUTO_APPROVE: 'true',
      DEMO_MEDIA_DIR: '',
      LOG_LEVEL: 'info',
      JOB_LEASE: '1500ms',
    };
    const api = await startChild(t, 'server.ts', {
      env: {
        ...env,
        PORT: '0',
        HOST: '127.0.0.1',
        WORKER_CONCURRENCY: '0',
        WEB_DIST: join(dataDir, 'no-web'),
      },
      ready: API_SERVING,
    });
    const url = api.match[1]!;
    await startChild(t, 'worker.ts', { env: { ...env, WORKER_CONCURRENCY: '1' }, ready: /worker started/ });

    const reg = (await (
      await fetch(`${url}/api/auth/register/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          first_name: 'Omar',
          last_name: 'Said',
          email: 'omar@example.org',
          password: GOOD_PASSWORD,
          password_confirm: GOOD_PASSWORD,
        }),
      })
    ).json()) as { tokens: { access: string } };
    const auth = { authorization: `Bearer ${reg.tokens.access}` };
    const clip = evalClip();
    const long = longClip(tempDir(t));
    const send = async (c: { wav: string; text: string }): Promise<string> => {
      const form = new FormData();
      form.set('language', 'eng');
      form.set('text', c.text);
      form.set('audio', new Blob([readFileSync(c.wav)]), 'a.wav');
      const res = await fetch(`${url}/api/alignments/`, { method: 'POST', headers: auth, body: form });
      assert.equal(res.status, 202);
      return ((await res.json()) as { id: string }).id;
    };

    const first = await send(clip);
    const stream = await (await fetch(`${url}/api/alignments/${first}/events/`, { headers: auth })).text();
    assert.match(stream, /event: end\ndata: .*"status":"completed"/);

    const second = await send(long);
    await until('the second job in its alignment step', async () => {
      const p = (await (
        await fetch(`${url}/api/alignments/${second}/progress/`, { headers: auth })
      ).json()) as {
        status: string;
        step: string | null;
      };
      return p.status === 'processing' && p.step === 'alignment';
    });
    const cancel = await fetch(`${url}/api/alignments/${second}/cancel/`, { method: 'POST', headers: auth });
    assert.equal(cancel.status, 200);
    const end = await (await fetch(`${url}/api/alignments/${second}/events/`, { headers: auth })).text();
    // the worker sees the request at its next heartbeat (lease / 3) and terminates its thread
    assert.match(end, /event: end\ndata: .*"status":"cancelled"/);
  },
);
