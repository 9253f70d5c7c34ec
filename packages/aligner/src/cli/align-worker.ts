// One batch worker: keeps its models loaded and aligns manifest items sent by the main thread.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { align } from '../engine.ts';
import { toPlatformJson } from '../formats/json.ts';
import { alignOptions, parseArgs } from './args.ts';
import type { ManifestItem } from './align.ts';

const parsed = parseArgs((workerData as { args: string[] }).args);

parentPort!.on('message', (item: ManifestItem) => {
  void (async () => {
    try {
      const text = item.text ?? readFileSync(item.text_file!, 'utf8');
      const result = await align(item.audio, text, alignOptions(parsed, item.lang));
      parentPort!.postMessage({ ok: true, json: toPlatformJson(result) });
    } catch (err) {
      parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  })();
});
