// An engine thread (started by engine-host.ts): runs one task at a time, posts its progress and its
// outcome. The thread keeps the engine's models loaded between tasks; its host terminates it to cancel a
// task and retires it after an engine fault (a WASM fault can leave the decoder's memory broken).
import { parentPort, workerData } from 'node:worker_threads';
import { engineOptionsOf } from '@tazamun/contracts/engine-options';
import { SAMPLE_RATE, decodeAudio16 } from '../audio/decode.ts';
import type { SourceAudioInfo } from '../audio/load.ts';
import type { Pcm } from '../audio/pcm.ts';
import { align } from '../engine.ts';
import { adaptModel } from '../acoustic/hmm/adapt/corpus.ts';
import { classifyError } from './outcome.ts';
import type {
  AdaptTask,
  AdaptTaskResult,
  AlignTask,
  EngineTask,
  ThreadData,
  ThreadMessage,
} from './protocol.ts';

const post = (m: ThreadMessage): void => parentPort!.postMessage(m);
const hooks = (workerData as ThreadData | undefined)?.testHooks === true;
/** set by the test hook: from then on this thread fails every task, as a broken decoder did */
let broken = false;

/** Progress finer than this share of the search is not worth a message. */
const PROGRESS_STEP = 0.01;

// the class a real WASM fault throws (the lib settings do not declare WebAssembly's values)
const WasmRuntimeError = (
  globalThis as unknown as { WebAssembly: { RuntimeError: new (m: string) => Error } }
).WebAssembly.RuntimeError;

function testHook(task: EngineTask): void {
  if (!hooks) return;
  if (broken) throw new Error('Failed to start utterance processing (thread broken by the test hook)');
  if (task.kind === 'align' && task.testFault) {
    broken = true;
    throw new WasmRuntimeError('memory access out of bounds (test hook)');
  }
}

async function runAdapt(task: AdaptTask): Promise<ThreadMessage> {
  let last = -1;
  const report = await adaptModel(task.items, {
    lang: task.language,
    out: task.out,
    lexicon: task.lexicon,
    onProgress: (done) => {
      if (last >= 0 && done - last < PROGRESS_STEP && done < 1) return;
      last = done;
      post({ type: 'progress', stage: 'adaptation', done });
    },
  });
  const result: AdaptTaskResult = { manifest: report.manifest, skipped: report.skipped };
  return { type: 'result', json: JSON.stringify(result) };
}

async function runAlign(task: AlignTask): Promise<ThreadMessage> {
  post({ type: 'progress', stage: 'analysis', done: 0 });
  let audio: string | Pcm = task.audio;
  let audioInfo: SourceAudioInfo | undefined;
  if (task.window) {
    // a stretch: decoded here and cut, and align() told what the source file was
    const { samples, probe } = await decodeAudio16(task.audio);
    audio = samples.subarray(
      Math.floor(task.window.start * SAMPLE_RATE),
      Math.ceil(task.window.end * SAMPLE_RATE),
    );
    audioInfo = {
      format: probe.format,
      sampleRate: probe.sampleRate || SAMPLE_RATE,
      channels: probe.channels,
    };
  }
  let last = -1;
  const result = await align(audio, task.text, {
    ...engineOptionsOf(task.options),
    lang: task.language,
    lexicon: task.lexicon,
    model: task.model,
    audioInfo,
    // a stretch's WER would say nothing about the whole recording
    recognition: task.window ? false : (task.recognition ?? true),
    onProgress: (done) => {
      if (last >= 0 && done - last < PROGRESS_STEP && done < 1) return;
      last = done;
      post({ type: 'progress', stage: 'alignment', done });
    },
  });
  return { type: 'result', json: JSON.stringify(result) };
}

/** One task, whatever its kind; a new kind of work is one more case here. */
function run(task: EngineTask): Promise<ThreadMessage> {
  switch (task.kind) {
    case 'align':
      return runAlign(task);
    case 'adapt':
      return runAdapt(task);
  }
}

parentPort!.on('message', (task: EngineTask) => {
  void (async () => {
    try {
      testHook(task);
      post(await run(task));
    } catch (err) {
      post(classifyError(err));
    }
  })();
});
