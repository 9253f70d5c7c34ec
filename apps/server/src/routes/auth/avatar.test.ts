import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { LIMITS } from '@tazamun/contracts/limits';
import { approvedUser, bearer, createTestApp, expectError } from '@tazamun/server/testing/test-app';

function multipart(field: string, filename: string, type: string, data: Buffer) {
  const boundary = '----tazamun-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const png = () =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

test('a real PNG becomes a 256x256 WebP avatar, served publicly and replaceable', async (t) => {
  const { app, dir } = await createTestApp(t);
  const u = await approvedUser(app);
  const m = multipart('avatar', 'me.png', 'image/png', await png());
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/avatar/',
    payload: m.payload,
    headers: { ...m.headers, ...bearer(u.access) },
  });
  assert.equal(res.statusCode, 200, res.body);
  const url: string = res.json().avatar;
  assert.match(url, new RegExp(`^/api/auth/avatar/${u.id}/[a-f0-9]{24}\\.webp$`));
  const img = await app.inject({ url });
  assert.equal(img.statusCode, 200);
  assert.equal(img.headers['content-type'], 'image/webp');
  const meta = await sharp(img.rawPayload).metadata();
  assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 256, 256]);

  const m2 = multipart('avatar', 'again.png', 'image/png', await png());
  const second = await app.inject({
    method: 'POST',
    url: '/api/auth/avatar/',
    payload: m2.payload,
    headers: { ...m2.headers, ...bearer(u.access) },
  });
  assert.notEqual(second.json().avatar, url);
  assert.equal(readdirSync(join(dir, 'files/users', u.id, 'avatar')).length, 1, 'the old file is removed');
  expectError(await app.inject({ url }), 404, 'not_found');

  const del = await app.inject({ method: 'DELETE', url: '/api/auth/avatar/', headers: bearer(u.access) });
  assert.equal(del.json().avatar, null);
  assert.equal(readdirSync(join(dir, 'files/users', u.id, 'avatar')).length, 0);
});

test('a text file named .png is refused with 415 and nothing is stored', async (t) => {
  const { app, dir } = await createTestApp(t);
  const u = await approvedUser(app);
  const m = multipart(
    'avatar',
    'fake.png',
    'image/png',
    Buffer.from('this is not a picture, just text\n'.repeat(20)),
  );
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/avatar/',
    payload: m.payload,
    headers: { ...m.headers, ...bearer(u.access) },
  });
  const body = expectError(res, 415, 'file_type_invalid');
  assert.match(String(body.detail), /PNG, JPEG/);
  assert.equal(existsSync(join(dir, 'files/users', u.id, 'avatar')), false);
});

test('an avatar over the size cap is refused with 413', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const m = multipart('avatar', 'big.png', 'image/png', Buffer.alloc(LIMITS.avatarMaxBytes + 1024, 1));
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/avatar/',
    payload: m.payload,
    headers: { ...m.headers, ...bearer(u.access) },
  });
  const body = expectError(res, 413, 'file_too_large');
  assert.match(String(body.detail), /5 MB/);
});

test('an avatar upload without a file or as JSON is a 400', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/avatar/',
    payload: { avatar: 'x' },
    headers: bearer(u.access),
  });
  const body = expectError(res, 400, 'bad_request');
  assert.deepEqual(body.avatar, ['This field is required.']);
});
