// The one mapping of a failed multipart upload (single and batch): each kind of failure, and the log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { AppError, createError } from '../errors.ts';
import { multipartFailure } from './multipart-failure.ts';

function capturingLog() {
  const lines: { msg: string; err?: { message: string } }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
      done();
    },
  });
  return { log: pino(stream), lines };
}

test('the app’s errors, the framework’s 4xx, outages and a full disk pass through unlogged', () => {
  const { log, lines } = capturingLog();
  const own = createError('audio_too_large', { size: 50 });
  assert.equal(multipartFailure(own, log, 'upload failed'), own);
  const tooMany = Object.assign(new Error('reach files limit'), { statusCode: 413 });
  assert.equal(multipartFailure(tooMany, log, 'upload failed'), tooMany);
  const away = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  assert.equal(multipartFailure(away, log, 'upload failed'), away);
  const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  assert.equal(multipartFailure(full, log, 'upload failed'), full);
  assert.deepEqual(lines, []);
});

test('a body cut short or not multipart is the client’s: 400 bad_request, not logged as a failure', () => {
  const { log, lines } = capturingLog();
  for (const message of [
    'Unexpected end of form',
    'Malformed part header',
    'Multipart: Boundary not found',
  ]) {
    const got = multipartFailure(new Error(message), log, 'upload failed');
    assert.ok(got instanceof AppError, message);
    assert.equal(got.code, 'bad_request');
    assert.equal(got.status, 400);
    assert.deepEqual(got.extra, { non_field_errors: ['The multipart body is incomplete or malformed.'] });
  }
  assert.deepEqual(lines, []);
});

test('anything else is logged with its cause and answers upload_failed without its message', () => {
  const { log, lines } = capturingLog();
  const got = multipartFailure(new Error('stream.pipe is not a function'), log, 'batch upload failed');
  assert.ok(got instanceof AppError);
  assert.equal(got.code, 'upload_failed');
  assert.equal(got.status, 500);
  assert.doesNotMatch(JSON.stringify(got.extra), /pipe/);
  assert.equal(lines.length, 1);
  assert.equal(lines[0]!.msg, 'batch upload failed');
  assert.equal(lines[0]!.err?.message, 'stream.pipe is not a function');
});
