// The zip reader's limits on real archives, with limits small enough to reach in a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../errors.ts';
import { writeZip } from '@tazamun/server/testing/zip-writer';
import { CorpusZip } from './corpus-zip.ts';

const LIMITS = { maxEntries: 10, maxUncompressedBytes: 1024 * 1024, maxCompressionRatio: 100 };

function zipFile(t: { after: (fn: () => void) => void }, zip: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-zip-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'a.zip');
  writeFileSync(path, zip);
  return path;
}

async function refusal(path: string): Promise<string> {
  try {
    (await CorpusZip.open(path, LIMITS)).close();
  } catch (err) {
    assert.ok(err instanceof AppError);
    return `${err.code}: ${String(err.params.reason ?? '')}`;
  }
  throw new Error('the zip was accepted');
}

test('entries are read from the directory and inflated on demand', async (t) => {
  const audio = randomBytes(300_000);
  const zip = await CorpusZip.open(
    zipFile(
      t,
      writeZip([
        { name: 'a/b.wav', content: audio },
        { name: 'a/b.lab', content: Buffer.from('hello') },
      ]),
    ),
    LIMITS,
  );
  t.after(() => zip.close());
  assert.deepEqual([...zip.entries.keys()], ['a/b.wav', 'a/b.lab']);
  assert.equal(zip.size('a/b.wav'), 300_000);
  assert.equal((await zip.read('a/b.lab', 100))!.toString(), 'hello');
  assert.ok((await zip.read('a/b.wav', audio.length))!.equals(audio));
});

test('the total inflated size, the entry count and the ratio each have a limit', async (t) => {
  const big = (name: string) => ({ name, content: randomBytes(600_000) });
  assert.equal(
    await refusal(zipFile(t, writeZip([big('a.wav'), big('b.wav')]))),
    'archive_unsafe: the files inflate to more than 1 MB',
  );
  assert.equal(
    await refusal(
      zipFile(
        t,
        writeZip(Array.from({ length: 11 }, (_, k) => ({ name: `${k}.lab`, content: Buffer.from('x') }))),
      ),
    ),
    'archive_unsafe: too many entries (11, at most 10)',
  );
  const roomy = { ...LIMITS, maxUncompressedBytes: 10 * 1024 * 1024 };
  await assert.rejects(
    CorpusZip.open(zipFile(t, writeZip([{ name: 'z.wav', content: Buffer.alloc(2_000_000) }])), roomy),
    (err: AppError) => err.params.reason === 'an entry inflates more than 100 times its size',
  );
  // a small, very compressible text is fine: the ratio is judged above 1 MB only
  const ok = await CorpusZip.open(
    zipFile(t, writeZip([{ name: 't.lab', content: Buffer.alloc(500_000, 97) }])),
    LIMITS,
  );
  ok.close();
});
