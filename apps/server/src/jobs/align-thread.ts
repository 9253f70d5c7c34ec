// Runs inside a worker thread: decodes the audio, aligns it, and posts progress and the result JSON.
// The thread keeps the engine's models loaded between jobs; the main thread terminates it to cancel,
// and retires it after an engine fault (a WASM fault can leave the decoder's memory broken).
import { parentPort, workerData } from 'node:worker_threads';
import { align } from '@tazamun/aligner/engine';
import { alignOptionsFromRequest } from '@tazamun/aligner/options';
import { AudioError, SAMPLE_RATE, decodeAudio16 } from '@tazamun/aligner/audio/decode';
import { EngineError } from '@tazamun/aligner/errors';
import { JobBoundsError } from '@tazamun/contracts/job-bounds';
import type { AlignThreadData, AlignThreadRequest, AlignThreadMessage } from './align-protocol.ts';
import { errorText } from './error-text.ts';

const post = (m: AlignThreadMessage): void => parentPort!.postMessage(m);
const hooks = (workerData as AlignThreadData | undefined)?.testHooks === true;
/** set by the test hook: from then on this thread fails every job, as a broken decoder did */
let broken = false;

/**
 * The user's input or the engine's fault. Bounds and audio errors are the user's; the engine's
 * EngineError says which it is (`input`); anything else counts as a fault, so an unknown failure
 * retires the thread rather than leave a possibly broken one in service.
 */
function classify(err: unknown): AlignThreadMessage {
  if (err instanceof AudioError) return { type: 'audio_error', code: err.code, message: err.message };
  if (err instanceof JobBoundsError)
    return { type: 'input_error', code: err.code, params: err.params, message: err.message };
  // the engine's input codes are its own, not the catalogue's: the handler words them with their message
  if (err instanceof EngineError && err.input)
    return { type: 'input_error', code: null, params: {}, message: err.message };
  const { message, stack } = errorText(err);
  return { type: 'engine_fault', message, stack };
}

// the class a real WASM fault throws (the server's lib settings do not declare WebAssembly's values)
const WasmRuntimeError = (
  globalThis as unknown as { WebAssembly: { RuntimeError: new (m: string) => Error } }
).WebAssembly.RuntimeError;

function testHook(req: AlignThreadRequest): void {
  if (!hooks) return;
  if (broken) throw new Error('Failed to start utterance processing (thread broken by the test hook)');
  if (req.testFault) {
    broken = true;
    throw new WasmRuntimeError('memory access out of bounds (test hook)');
  }
}

parentPort!.on('message', (req: AlignThreadRequest) => {
  void (async () => {
    try {
      testHook(req);
      post({ type: 'progress', step: 'analysis', percent: 25 });
      // 16-bit samples: half the memory of floats; align() converts them for a back-end that wants floats
      const decoded = await decodeAudio16(req.audioPath);
      const { probe } = decoded;
      const samples = req.window
        ? decoded.samples.subarray(
            Math.floor(req.window.start * SAMPLE_RATE),
            Math.ceil(req.window.end * SAMPLE_RATE),
          )
        : decoded.samples;
      post({ type: 'progress', step: 'alignment', percent: 40 });
      // The engine reports the share of its work done; the alignment step covers 40-90 %.
      let last = 40;
      const onProgress = (done: number): void => {
        const percent = Math.min(90, 40 + Math.floor(done * 50));
        if (percent - last < 2) return;
        last = percent;
        post({ type: 'progress', step: 'alignment', percent });
      };
      const result = await align(
        samples,
        req.text,
        alignOptionsFromRequest(req.options, {
          lang: req.language,
          lexicon: req.lexicon,
          onProgress,
          // align() is given samples, so it is told what ffprobe saw of the source file
          audioInfo: {
            format: probe.format,
            sampleRate: probe.sampleRate || SAMPLE_RATE,
            channels: probe.channels,
          },
          // a stretch's WER would say nothing about the whole recording
          ...(req.window && { recognition: false }),
        }),
      );
      post({ type: 'result', json: JSON.stringify(result) });
    } catch (err) {
      post(classify(err));
    }
  })();
});
