// One batch worker: keeps its models loaded and aligns manifest items sent by the main thread.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { align } from '../engine.ts';
import { toPlatformJson } from '../formats/json.ts';
import { AudioError } from '../audio/decode.ts';
import { toEngineError } from '../errors.ts';
import { alignOptions, parseArgs } from './args.ts';
import type { ManifestItem } from './align.ts';
import type { WorkerReply } from './batch.ts';

const parsed = parseArgs((workerData as { args: string[] }).args);

parentPort!.on('message', (item: ManifestItem) => {
  void (async () => {
    let reply: WorkerReply;
    try {
      const text = item.text ?? readFileSync(item.text_file!, 'utf8');
      const result = await align(item.audio, text, alignOptions(parsed, item.lang));
      reply = { ok: true, json: toPlatformJson(result) };
    } catch (err) {
      if (err instanceof AudioError) reply = { ok: false, code: err.code, fault: false, error: err.message };
      else if (err instanceof Error && (err as NodeJS.ErrnoException).code === 'ENOENT')
        reply = { ok: false, code: 'not_found', fault: false, error: err.message };
      else {
        const e = toEngineError(err);
        reply = { ok: false, code: e.code, fault: !e.input, error: e.message };
      }
    }
    parentPort!.postMessage(reply);
  })();
});
