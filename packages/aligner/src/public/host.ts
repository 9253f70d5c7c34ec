// Public entry `@tazamun/aligner/host`: the engine host (worker threads that keep the models warm, run
// tasks, retire a thread after a fault), its task and outcome types, and the one way to start a thread.
export { ENGINE_FAULT_MARKER, EngineHost } from '../host/engine-host.ts';
export type { EngineFaultHook, EngineHostRuns, EngineHostStats, RunOptions } from '../host/engine-host.ts';
export type { AlignTask, EngineOutcome, EngineProgress, EngineStage, EngineTask } from '../host/protocol.ts';
export { startThread } from '../host/start-thread.ts';
