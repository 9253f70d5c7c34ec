// Runs inside a worker thread: decodes the audio, aligns it, and posts progress and the result JSON.
// The thread keeps the engine's models loaded between jobs; the main thread terminates it to cancel.
import { parentPort } from 'node:worker_threads';
import { align } from '@tazamun/aligner/engine';
import { AudioError, SAMPLE_RATE, decodeAudio } from '@tazamun/aligner/audio/decode';
import type { AlignThreadRequest, AlignThreadMessage } from './align-protocol.ts';

const post = (m: AlignThreadMessage): void => parentPort!.postMessage(m);

parentPort!.on('message', (req: AlignThreadRequest) => {
  void (async () => {
    try {
      post({ type: 'progress', step: 'analysis', percent: 25 });
      const decoded = await decodeAudio(req.audioPath);
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
      const result = await align(samples, req.text, {
        onProgress,
        lang: req.language,
        precision: req.options.precision,
        normalize: req.options.normalize,
        numbersToWords: req.options.numbers_to_words,
        removeFillers: req.options.remove_fillers,
        inputKind: req.options.input_kind,
        engine: req.options.engine,
        lexicon: req.lexicon,
        // a stretch's WER would say nothing about the whole recording
        ...(req.window && { recognition: false }),
      });
      // align() was given samples, so it cannot know the source file: record what ffprobe saw.
      result.audio.format = probe.format;
      result.audio.sample_rate = probe.sampleRate || result.audio.sample_rate;
      result.audio.channels = probe.channels;
      post({ type: 'result', json: JSON.stringify(result) });
    } catch (err) {
      if (err instanceof AudioError) post({ type: 'audio_error', code: err.code, message: err.message });
      else post({ type: 'engine_error', message: err instanceof Error ? err.message : String(err) });
    }
  })();
});
