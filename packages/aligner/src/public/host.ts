// Public entry `@tazamun/aligner/host`: the engine host (worker threads that keep the models warm, run
// tasks, retire a thread after a fault), its task and outcome types, the one way to start a thread, and
// the one way to stop one that may be inside onnxruntime (native-guard.ts).
export { ENGINE_FAULT_MARKER, EngineHost } from '../host/engine-host.ts';
export type { EngineFaultHook, EngineHostRuns, EngineHostStats, RunOptions } from '../host/engine-host.ts';
export type {
  AdaptTask,
  AdaptTaskResult,
  AlignTask,
  EngineOutcome,
  EngineProgress,
  EngineStage,
  EngineTask,
} from '../host/protocol.ts';
export { startThread } from '../host/start-thread.ts';
export { NATIVE_GUARD_KEY, ThreadStopping, nativeCall, newThreadGuard, stopThread } from '../native-guard.ts';
export type { ThreadGuard } from '../native-guard.ts';
// which Gaussian kernel and which search the engine's threads take (the native ones, or the fallbacks and
// why), for the log
export { gaussianKernelChoice } from '../acoustic/hmm/scoring/gaussians.ts';
export { searchChoice } from '../acoustic/hmm/search/viterbi.ts';
