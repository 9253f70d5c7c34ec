// onnxruntime-node, loaded on first use. A static import would load it (its 22 MB native library and the
// CommonJS module's export scan) in every thread whose bundle contains a user of it, the CLI's main thread
// included, which never runs a model.
import type * as OrtModule from 'onnxruntime-node';

export type Ort = typeof OrtModule;

let loading: Promise<Ort> | null = null;

/** The onnxruntime-node module (its CommonJS exports, whether reached as default or as namespace). */
export function onnxRuntime(): Promise<Ort> {
  if (!loading) {
    loading = import('onnxruntime-node').then((mod) => (mod as Ort & { default?: Ort }).default ?? mod);
    // a failed load is tried again next time (the caller sees the failure)
    loading.catch(() => (loading = null));
  }
  return loading;
}
