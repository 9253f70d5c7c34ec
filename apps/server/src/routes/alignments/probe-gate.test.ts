// The bound on concurrent ffprobe runs: excess uploads wait in order up to the queue size, and beyond
// it get a 503 `server_busy` with Retry-After at once — before their body is read — storing nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '@tazamun/server/testing/until';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorBody } from '@tazamun/contracts/error-body';
import { AppError } from '../../errors.ts';
import { approvedUser, bearer } from '@tazamun/server/testing/test-app';
import { pcmWav } from '@tazamun/server/testing/wav';
import { ProbeGate } from './probe-gate.ts';
import { createJobsTestApp } from '@tazamun/server/testing/jobs-test-app';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((r) => setImmediate(r));

test('the gate runs at most `concurrency` at once, queues in order, refuses beyond the queue', async () => {
  const gate = new ProbeGate(2, 2);
  const order: string[] = [];
  const holds = [deferred(), deferred(), deferred(), deferred()];
  const tasks = holds.map((h, i) =>
    gate.run(async () => {
      order.push(`start ${i}`);
      await h.promise;
      return i;
    }),
  );
  await tick();
  assert.deepEqual(gate.stats, { running: 2, waiting: 2 });
  assert.deepEqual(order, ['start 0', 'start 1']);
  assert.equal(gate.full, true);
  const refused = await gate
    .run(async () => 'never')
    .then(
      () => null,
      (e: unknown) => e,
    );
  assert.ok(refused instanceof AppError);
  assert.equal(refused.code, 'server_busy');
  assert.ok(Number(refused.params.seconds) >= 1);

  holds[1]!.resolve();
  await tick();
  assert.deepEqual(order, ['start 0', 'start 1', 'start 2'], 'the first waiter gets the freed slot');
  assert.deepEqual(gate.stats, { running: 2, waiting: 1 });
  for (const h of holds) h.resolve();
  assert.deepEqual(await Promise.all(tasks), [0, 1, 2, 3]);
  assert.deepEqual(gate.stats, { running: 0, waiting: 0 });

  // a failing task frees its slot too
  await assert.rejects(
    gate.run(async () => Promise.reject(new Error('probe failed'))),
    /probe failed/,
  );
  assert.deepEqual(gate.stats, { running: 0, waiting: 0 });
});

test('a saturated gate answers 503 server_busy with Retry-After and stores nothing; waiting uploads finish', async (t) => {
  const { app, dir } = await createJobsTestApp(
    t,
    { concurrency: 0 },
    { uploadProbe: { concurrency: 1, queue: 1 } },
  );
  const u = await approvedUser(app);
  const wav = pcmWav(0.5, (i) => 6000 * Math.sin((2 * Math.PI * 330 * i) / 16_000));
  const send = (lang = 'en') =>
    app.inject({
      method: 'POST',
      url: '/api/alignments/',
      ...(() => {
        const boundary = '----probegate';
        const part = (name: string, value: string) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
        return {
          payload: Buffer.concat([
            Buffer.from(part('language', 'eng') + part('text', 'a tone')),
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="t.wav"\r\n` +
                'Content-Type: audio/wav\r\n\r\n',
            ),
            wav,
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]),
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'accept-language': lang,
            ...bearer(u.access),
          },
        };
      })(),
    });

  // Something else holds the only probe slot (as a long ffprobe would).
  const hold = deferred();
  const holder = app.probeGate.run(() => hold.promise);
  const waiting = send();
  await until('the upload waiting for the probe slot', () => app.probeGate.stats.waiting >= 1);

  const busy = await send('fr');
  assert.equal(busy.statusCode, 503, busy.body);
  const body = ErrorBody.parse(busy.json());
  assert.equal(body.code, 'server_busy');
  assert.match(body.detail, /Le serveur est occupé/);
  const retry = Number(busy.headers['retry-after']);
  assert.ok(Number.isInteger(retry) && retry >= 1, `Retry-After: ${busy.headers['retry-after']}`);
  assert.equal(body.retry_after, retry);
  assert.ok(body.request_id);

  hold.resolve();
  await holder;
  const accepted = await waiting;
  assert.equal(accepted.statusCode, 202, accepted.body);
  assert.deepEqual(app.probeGate.stats, { running: 0, waiting: 0 });

  // only the accepted upload is stored and counted; the refused one left no temp file
  const rows = await app.deps.db.selectFrom('alignments').select('id').execute();
  assert.equal(rows.length, 1);
  const q = await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) });
  assert.equal(q.json().quota.used_today, 1);
  assert.deepEqual(readdirSync(join(dir, 'tmp')), []);

  // and with the gate free again, the next upload goes through
  assert.equal((await send()).statusCode, 202);
});
