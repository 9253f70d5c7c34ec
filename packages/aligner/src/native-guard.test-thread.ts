// The thread of native-guard.test.ts: onnxruntime MatMuls without pause, each through nativeCall.
import { parentPort } from 'node:worker_threads';
import ort from 'onnxruntime-node';
import { nativeCall } from './native-guard.ts';
import { encodeOnnxModel } from './onnx/encode.ts';

const model = encodeOnnxModel({
  nodes: [{ op: 'MatMul', inputs: ['x', 'w'], outputs: ['y'] }],
  initializers: [{ name: 'w', dims: [256, 512], data: new Float32Array(256 * 512).fill(0.01) }],
  inputs: [{ name: 'x', shape: ['T', 256] }],
  outputs: [{ name: 'y', shape: ['T', 512] }],
});
const session = await nativeCall(() => ort.InferenceSession.create(model, { intraOpNumThreads: 1 }));
const x = new ort.Tensor('float32', new Float32Array(128 * 256).fill(0.5), [128, 256]);
parentPort?.postMessage('running');
for (;;) await nativeCall(() => session.run({ x }));
