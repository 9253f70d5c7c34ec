// Issue 27, "also seen": the access token rode in the progress stream's URL (and so in access logs and
// proxies); a re-alignment with a text its stretch cannot hold was accepted and failed in the worker;
// an absurd time gave a message reading "Infinity s". Real app, real database (both).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { StreamTicket } from '@tazamun/contracts/alignments';
import {
  approvedUser,
  bearer,
  createTestApp,
  expectError,
  testConfig,
} from '@tazamun/server/testing/test-app';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { completedAlignment } from '@tazamun/server/testing/completed-alignment';

async function ticketFor(app: FastifyInstance, credential: string, id: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/alignments/${id}/events/ticket/`,
    headers: bearer(credential),
  });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  return StreamTicket.parse(res.json()).ticket;
}

const stream = (app: FastifyInstance, id: string, query: string) =>
  app.inject({ url: `/api/alignments/${id}/events/?${query}` });

test('the progress stream opens with a one-minute ticket for one alignment; the token stays out of the URL', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-ticket-test-'));
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const clock = new ManualClock();
  const app = await buildApp(testConfig(dir), { clock, logger: { level: 'info', stream: logStream } });
  t.after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const u = await approvedUser(app);
  const other = await approvedUser(app);
  const { id } = await completedAlignment(app, u.id);
  const second = await completedAlignment(app, u.id);
  const ticket = await ticketFor(app, u.access, id);
  assert.ok(!ticket.includes(u.access.split('.')[1]!), 'the ticket is not the access token');

  const res = await stream(app, id, `ticket=${encodeURIComponent(ticket)}`);
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/event-stream/);
  assert.match(res.body, /event: end\n/);
  // the same ticket again within its minute (EventSource reconnects), never for another alignment
  assert.equal((await stream(app, id, `ticket=${encodeURIComponent(ticket)}`)).statusCode, 200);
  expectError(await stream(app, second.id, `ticket=${encodeURIComponent(ticket)}`), 401, 'token_invalid');
  // another user cannot get one for this alignment
  expectError(
    await app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/events/ticket/`,
      headers: bearer(other.access),
    }),
    404,
    'not_found',
  );
  // altered, or past its minute
  const [body, sig] = ticket.split('.');
  expectError(await stream(app, id, `ticket=${body}.${sig!.slice(1)}x`), 401, 'token_invalid');
  clock.advance(61_000);
  expectError(await stream(app, id, `ticket=${encodeURIComponent(ticket)}`), 401, 'token_invalid');
  // a fresh one dies with its session
  const fresh = await ticketFor(app, u.access, id);
  await app.deps.db.deleteFrom('sessions').where('user_id', '=', u.id).execute();
  expectError(await stream(app, id, `ticket=${encodeURIComponent(fresh)}`), 401, 'token_invalid');
  // neither the ticket nor (for older clients) an access token in the URL reaches the log
  const log = lines.join('\n');
  assert.ok(!log.includes(body!), 'no ticket in the log');
  assert.match(log, /events\/\?ticket=\[redacted\]/);
});

test('a personal API token gets a ticket too, which dies with the token', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const { id } = await completedAlignment(app, u.id);
  const made = await app.inject({
    method: 'POST',
    url: '/api/auth/tokens/',
    headers: bearer(u.access),
    payload: { name: 'stream' },
  });
  const { token, id: tokenId } = made.json() as { token: string; id: string };
  const ticket = await ticketFor(app, token, id);
  assert.equal((await stream(app, id, `ticket=${encodeURIComponent(ticket)}`)).statusCode, 200);
  await app.inject({ method: 'DELETE', url: `/api/auth/tokens/${tokenId}/`, headers: bearer(u.access) });
  expectError(await stream(app, id, `ticket=${encodeURIComponent(ticket)}`), 401, 'token_invalid');
});

test('a re-alignment text its stretch cannot hold is refused at the route (422), no job written', async (t) => {
  const { app } = await createTestApp(t, { jobs: { ...app0Jobs(), concurrency: 0 } });
  const u = await approvedUser(app);
  const { id } = await completedAlignment(app, u.id);
  const realign = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/api/alignments/${id}/realign/`, headers: bearer(u.access), payload });
  // a stretch of about one second holds at most 60 words and 360 characters; 5000 is the field's cap
  const tooLong = expectError(
    await realign({ start: 0.3, end: 1.2, text: 'word '.repeat(999) }),
    422,
    'transcript_too_long',
  );
  assert.match(String(tooLong.detail), /^The transcript is far longer than the audio can hold: /);
  assert.equal((tooLong.text as string[]).length, 1);
  assert.equal((await app.deps.db.selectFrom('jobs').select('id').execute()).length, 0);
  // a text that fits is queued as before
  assert.equal((await realign({ start: 0.3, end: 1.2, text: 'she had' })).statusCode, 202);
});

test('absurd times are field errors, and no message ever reads "Infinity"', async (t) => {
  const { app } = await createTestApp(t, { jobs: { ...app0Jobs(), concurrency: 0 } });
  const u = await approvedUser(app);
  const { id } = await completedAlignment(app, u.id);
  for (const payload of [
    { start: 0, end: 1e306 },
    { start: 1e300, end: 1e301 },
  ]) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/realign/`,
      headers: bearer(u.access),
      payload,
    });
    expectError(res, 400, 'validation_error');
    assert.ok(!res.body.includes('Infinity'), res.body);
  }
  const save = await app.inject({
    method: 'POST',
    url: `/api/alignments/${id}/revisions/`,
    headers: bearer(u.access),
    payload: { base_revision: 1, words: [{ index: 0, start: 0.1, end: 1e306 }] },
  });
  expectError(save, 400, 'validation_error');
  assert.ok(!save.body.includes('Infinity'), save.body);
  // a long but finite stretch still gets the stretch rule's own message, with its numbers
  const long = await app.inject({
    method: 'POST',
    url: `/api/alignments/${id}/realign/`,
    headers: bearer(u.access),
    payload: { start: 0, end: 600_000 },
  });
  const body = expectError(long, 400, 'realign_too_long');
  assert.match(String(body.detail), /covers 0 – 600000 s of /);
});

function app0Jobs() {
  return { ...loadConfig({}).jobs, demoMediaDir: null, seedDemos: false };
}
