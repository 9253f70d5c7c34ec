// Runs inside a worker thread: reads the transcripts of a batch (transcript-text.ts), one message each,
// so a hostile file costs this thread's time and memory, never the event loop's (issue 27, item 1).
import { parentPort } from 'node:worker_threads';
import { readTranscript } from './transcript-text.ts';
import type { TranscriptRequest, TranscriptReply } from './transcript-reader.ts';

parentPort!.on('message', (req: TranscriptRequest) => {
  const reply: TranscriptReply = { id: req.id, outcome: readTranscript(req.name, req.bytes) };
  parentPort!.postMessage(reply);
});

// loaded: the reader counts each transcript's budget from here, not from the thread's start-up
parentPort!.postMessage({ ready: true });
