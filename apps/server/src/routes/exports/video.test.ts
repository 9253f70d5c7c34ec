// The karaoke MP4 of an Arabic alignment at SD, checked with ffprobe (codecs, size, frame rate,
// duration) and by looking at a frame for drawn text; then downloaded again and removed with the
// alignment.
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { VideoStatus } from '@tazamun/contracts/exports';
import { until } from '@tazamun/server/testing/until';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import {
  EVAL_DIR,
  createJobsTestApp,
  tempDir,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';

test(
  'karaoke video: render job, progress, ffprobe, download again, removed on delete',
  { timeout: 300_000 },
  async (t) => {
    const { app, dir } = await createJobsTestApp(t);
    const u = await approvedUser(app);
    const wav = join(EVAL_DIR, 'ar-synthetic/arsyn_05.wav');
    const meta = join(EVAL_DIR, 'ar-synthetic/arsyn_05.json');
    if (!existsSync(wav)) throw new Error(`missing ${wav}: the shared eval set must be present`);
    const { text } = JSON.parse(readFileSync(meta, 'utf8')) as { text: string };
    const res = await upload(app, u.access, [
      { name: 'language', value: 'ara' },
      { name: 'text', value: text },
      { name: 'audio', filename: 'سؤال.wav', content: readFileSync(wav) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    const id = res.json().id as string;
    assert.equal((await waitForStatus(app, u.access, id)).status, 'completed');
    const detail = (await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(u.access) })).json();
    assert.equal(detail.video, null, 'no video asked for yet');

    expectError(
      await app.inject({ url: `/api/alignments/${id}/video/`, headers: bearer(u.access) }),
      404,
      'not_found',
    );
    const post = await app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/video/`,
      headers: bearer(u.access),
      payload: { resolution: 'sd', position: 'center', show_processed_text: true, show_waveform: true },
    });
    assert.equal(post.statusCode, 202, post.body);
    assert.deepEqual([post.json().width, post.json().height, post.json().fps], [854, 480, 30]);
    const status = await videoEnded(app, id, u.access);
    assert.equal(status.status, 'completed', JSON.stringify(status));
    assert.equal(status.download_url, `/api/alignments/${id}/video/file/`);
    assert.ok(status.download_url);
    // the detail says there is one, so a page opened again offers its download at once
    const reopened = (await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(u.access) })).json();
    assert.deepEqual(reopened.video, { status: 'completed' });

    const file = await app.inject({ url: status.download_url, headers: bearer(u.access) });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'video/mp4');
    assert.match(String(file.headers['content-disposition']), /filename\*=UTF-8''%D8%B3/);
    const out = join(tempDir(t), 'v.mp4');
    writeFileSync(out, file.rawPayload);
    if (process.env.KEEP_VIDEO) writeFileSync(process.env.KEEP_VIDEO, file.rawPayload);
    const probe = JSON.parse(
      execFileSync(
        '/usr/bin/ffprobe',
        ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', out],
        {
          encoding: 'utf8',
        },
      ),
    ) as { format: { duration: string }; streams: Record<string, string | number>[] };
    const video = probe.streams.find((s) => s.codec_type === 'video')!;
    const audio = probe.streams.find((s) => s.codec_type === 'audio')!;
    assert.equal(video.codec_name, 'h264');
    assert.equal(audio.codec_name, 'aac');
    assert.deepEqual([video.width, video.height], [854, 480]);
    assert.equal(video.avg_frame_rate, '30/1');
    const duration = Number(probe.format.duration);
    assert.ok(
      Math.abs(duration - detail.duration) <= 0.05,
      `video ${duration} s vs audio ${detail.duration} s`,
    );
    assert.equal(file.rawPayload.length, status.file_size);

    // A frame in the middle of the longest word: its highlight (#F59E0B, warm) must be on screen, where
    // everything else (background, waveform, white and grey words) is neutral or blue.
    const longest = [...detail.result.words]
      .filter((w: { start: number | null }) => w.start !== null)
      .sort((a: { duration: number }, b: { duration: number }) => b.duration - a.duration)[0];
    const at = (longest.start + longest.end) / 2;
    const rgb = execFileSync(
      '/usr/bin/ffmpeg',
      [
        '-v',
        'error',
        '-ss',
        at.toFixed(3),
        '-i',
        out,
        '-frames:v',
        '1',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        'pipe:1',
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    let accent = 0;
    for (let i = 0; i < rgb.length; i += 3) {
      if (rgb[i]! > 150 && rgb[i]! - rgb[i + 2]! > 80) accent++;
    }
    assert.ok(accent > 20, `highlighted word pixels: ${accent}`);

    // The preferences decide what the request leaves out: smooth video (60 fps) and the watermark.
    const prefs = await app.inject({
      method: 'PATCH',
      url: '/api/auth/preferences/',
      headers: bearer(u.access),
      payload: { fps: 'smooth', watermark: true },
    });
    assert.equal(prefs.statusCode, 200, prefs.body);
    const smooth = await renderVideo(app, u.access, id, { resolution: 'sd', show_waveform: true });
    assert.deepEqual(
      [smooth.status.fps, smooth.status.options.fps, smooth.status.options.watermark],
      [60, 60, true],
    );
    assert.equal(probeVideo(smooth.file, t).avg_frame_rate, '60/1');
    const frame = frameAt(smooth.file, t, at);
    // the waveform (bottom position: the middle quarter of the height) spans much of its band for
    // normal speech levels, not a flat line
    const waveH = 60;
    const top = (480 - waveH) / 2;
    const rows: number[] = [];
    for (let y = top; y < top + waveH; y++)
      for (let x = 0; x < 854; x++) {
        const i = (y * 854 + x) * 3;
        if (frame[i + 2]! > 150 && frame[i + 2]! - frame[i]! > 100) {
          rows.push(y);
          break;
        }
      }
    const span = rows.length === 0 ? 0 : (Math.max(...rows) - Math.min(...rows) + 1) / waveH;
    assert.ok(span >= 0.4, `the waveform spans ${(span * 100).toFixed(0)} % of its band`);
    // the watermark: light pixels in the top right corner, where nothing else is drawn
    let light = 0;
    for (let y = 0; y < 60; y++)
      for (let x = 854 - 200; x < 854; x++) {
        const i = (y * 854 + x) * 3;
        if (frame[i]! > 90 && frame[i + 1]! > 90 && frame[i + 2]! > 90) light++;
      }
    assert.ok(light > 20, `watermark pixels: ${light}`);
    // and the first video, rendered at 30 fps without a watermark, had none there
    let before = 0;
    for (let y = 0; y < 60; y++)
      for (let x = 854 - 200; x < 854; x++) {
        const i = (y * 854 + x) * 3;
        if (rgb[i]! > 90 && rgb[i + 1]! > 90 && rgb[i + 2]! > 90) before++;
      }
    assert.equal(before, 0);

    const again = await app.inject({
      url: smooth.status.download_url!,
      headers: { ...bearer(u.access), range: 'bytes=4-7' },
    });
    assert.equal(again.statusCode, 206);
    assert.equal(again.body, 'ftyp');

    const folder = join(dir, 'files', 'users', u.id, 'alignments', id);
    assert.ok(existsSync(join(folder, `video-${smooth.status.id}.mp4`)));
    assert.equal(
      (await app.inject({ method: 'DELETE', url: `/api/alignments/${id}/`, headers: bearer(u.access) }))
        .statusCode,
      204,
    );
    assert.equal(existsSync(folder), false);
  },
);

/** The render's status once it has ended (completed or failed). */
function videoEnded(app: FastifyInstance, id: string, access: string): Promise<z.infer<typeof VideoStatus>> {
  return until('the video render ended', async () => {
    const res = await app.inject({ url: `/api/alignments/${id}/video/`, headers: bearer(access) });
    const status = VideoStatus.parse(res.json());
    return status.status === 'queued' || status.status === 'processing' ? null : status;
  });
}

async function renderVideo(
  app: FastifyInstance,
  access: string,
  id: string,
  payload: Record<string, unknown>,
) {
  const post = await app.inject({
    method: 'POST',
    url: `/api/alignments/${id}/video/`,
    headers: bearer(access),
    payload,
  });
  assert.equal(post.statusCode, 202, post.body);
  const status = await videoEnded(app, id, access);
  assert.equal(status.status, 'completed', JSON.stringify(status));
  assert.ok(status.download_url);
  const file = await app.inject({ url: status.download_url, headers: bearer(access) });
  assert.equal(file.statusCode, 200);
  return { status, file: file.rawPayload };
}

function probeVideo(bytes: Buffer, t: TestContext): Record<string, string | number> {
  const out = join(tempDir(t), 'probe.mp4');
  writeFileSync(out, bytes);
  const probe = JSON.parse(
    execFileSync('/usr/bin/ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', out], {
      encoding: 'utf8',
    }),
  ) as { streams: Record<string, string | number>[] };
  return probe.streams.find((s) => s.codec_type === 'video')!;
}

function frameAt(bytes: Buffer, t: TestContext, at: number): Buffer {
  const out = join(tempDir(t), 'frame.mp4');
  writeFileSync(out, bytes);
  return execFileSync(
    '/usr/bin/ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      at.toFixed(3),
      '-i',
      out,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
}
