// The queue's signals over a real redis-server: a wake in one process reaches the workers of others,
// an alignment update reaches every API process, nothing echoes, and a 10 s Redis outage neither
// crashes a process nor stops the signals once Redis is back.
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JobUpdate } from '../jobs/job-queue.ts';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { RedisSignals } from './redis-signals.ts';
import { until } from '@tazamun/server/testing/until';

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

function fakeProcess() {
  const queue = {
    events: new EventEmitter(),
    wakes: 0,
    wake() {
      queue.wakes += 1;
    },
  };
  const updates: JobUpdate[] = [];
  queue.events.on('update', (u: JobUpdate) =>
    updates.push({ alignmentId: u.alignmentId, videoId: u.videoId }),
  );
  return { queue, updates };
}

/** Waits for a condition driven by another process; the deadline only turns a hang into a failure. */

test('wake-ups and updates travel between processes over Redis, and survive a 10 s outage', async (t) => {
  const redis = await startRedis();
  t.after(() => redis.stop());
  const api = fakeProcess();
  const w1 = fakeProcess();
  const w2 = fakeProcess();
  const relays = [api, w1, w2].map((p) => new RedisSignals(redis.url, p.queue, quiet, 'test'));
  t.after(() => Promise.all(relays.map((r) => r.close())));
  await Promise.all(relays.map((r) => r.start()));
  assert.ok(await relays[0]!.ping());

  // the API enqueues: its own (idle) queue and both workers are woken
  api.queue.wake();
  await until('both workers woken', () => w1.queue.wakes === 1 && w2.queue.wakes === 1);
  assert.equal(api.queue.wakes, 1, 'the local wake still runs, once');

  // a worker's progress reaches the API process and the other worker, and is not echoed back
  w1.queue.events.emit('update', { alignmentId: 'a1', videoId: null });
  await until('update relayed', () => api.updates.length === 1 && w2.updates.length === 1);
  assert.deepEqual(api.updates[0], { alignmentId: 'a1', videoId: null });
  w2.queue.events.emit('update', { alignmentId: 'marker', videoId: null });
  await until('marker relayed', () => w1.updates.some((u) => u.alignmentId === 'marker'));
  assert.equal(w1.updates.filter((u) => u.alignmentId === 'a1').length, 1, 'no echo of its own update');

  // Redis goes away for 10 s: publishing fails quietly, local behaviour goes on
  await redis.down();
  const downAt = Date.now();
  assert.equal(await relays[0]!.ping(), false);
  w1.queue.events.emit('update', { alignmentId: 'during-outage', videoId: null });
  api.queue.wake();
  assert.equal(api.queue.wakes, 2);
  await new Promise((r) => setTimeout(r, Math.max(0, 10_000 - (Date.now() - downAt))));
  await redis.restart();

  // back: the relays reconnect and resubscribe by themselves
  await until('ping after restart', () => relays[0]!.ping());
  // each look sends one more: the first that Redis carries again ends the wait
  await until('signals flow again', () => {
    w2.queue.events.emit('update', { alignmentId: 'after', videoId: null });
    return api.updates.some((u) => u.alignmentId === 'after');
  });
  api.queue.wake();
  await until('workers woken after the outage', () => w1.queue.wakes >= 2 && w2.queue.wakes >= 2);
});
