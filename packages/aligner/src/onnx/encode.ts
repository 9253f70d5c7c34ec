// A minimal ONNX protobuf writer: enough message types (Model, Graph, Node, Attribute, Tensor, ValueInfo) to
// build small float graphs by hand. The HMM back-end builds its Gaussian-scoring graph with it (one matrix
// product per feature stream), and the tests make a tiny stand-in for the MMS export with the same
// input/output names and shapes, because no model hub is reachable from the test machines.

class Writer {
  private chunks: Uint8Array[] = [];
  private size = 0;

  private push(b: Uint8Array): void {
    this.chunks.push(b);
    this.size += b.length;
  }

  varint(v: number | bigint): void {
    let n = BigInt.asUintN(64, BigInt(v));
    const out: number[] = [];
    do {
      let byte = Number(n & 0x7fn);
      n >>= 7n;
      if (n > 0n) byte |= 0x80;
      out.push(byte);
    } while (n > 0n);
    this.push(Uint8Array.from(out));
  }

  tag(field: number, wire: 0 | 1 | 2 | 5): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, v: number | bigint): void {
    this.tag(field, 0);
    this.varint(v);
  }

  bytes(field: number, b: Uint8Array): void {
    this.tag(field, 2);
    this.varint(b.length);
    this.push(b);
  }

  string(field: number, s: string): void {
    this.bytes(field, new TextEncoder().encode(s));
  }

  float(field: number, f: number): void {
    this.tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, f, true);
    this.push(b);
  }

  message(field: number, build: (w: Writer) => void): void {
    const w = new Writer();
    build(w);
    this.bytes(field, w.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

export type OnnxAttr = { ints: number[] } | { int: number } | { float: number };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attrs?: Record<string, OnnxAttr>;
}

export interface OnnxInitializer {
  name: string;
  dims: number[];
  data: Float32Array | BigInt64Array;
}

export interface OnnxValueInfo {
  name: string;
  /** dimension sizes, or names for symbolic dimensions */
  shape: (number | string)[];
  elemType?: 'float' | 'int64';
}

export interface OnnxGraph {
  nodes: OnnxNode[];
  initializers: OnnxInitializer[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
  opset?: number;
}

const ELEM = { float: 1, int64: 7 } as const;

function writeValueInfo(w: Writer, field: number, v: OnnxValueInfo): void {
  w.message(field, (vi) => {
    vi.string(1, v.name);
    vi.message(2, (tp) =>
      tp.message(1, (tt) => {
        tt.int(1, ELEM[v.elemType ?? 'float']);
        tt.message(2, (sh) => {
          for (const d of v.shape)
            sh.message(1, (dim) => (typeof d === 'number' ? dim.int(1, d) : dim.string(2, d)));
        });
      }),
    );
  });
}

export function encodeOnnxModel(g: OnnxGraph): Uint8Array {
  const w = new Writer();
  w.int(1, 8); // ir_version
  w.string(2, 'tazamun');
  w.message(8, (op) => {
    op.string(1, '');
    op.int(2, g.opset ?? 17);
  });
  w.message(7, (gr) => {
    g.nodes.forEach((n, i) => {
      gr.message(1, (nw) => {
        for (const x of n.inputs) nw.string(1, x);
        for (const x of n.outputs) nw.string(2, x);
        nw.string(3, `n${i}`);
        nw.string(4, n.op);
        for (const [name, a] of Object.entries(n.attrs ?? {})) {
          nw.message(5, (aw) => {
            aw.string(1, name);
            if ('ints' in a) {
              for (const v of a.ints) aw.int(8, v);
              aw.int(20, 7);
            } else if ('int' in a) {
              aw.int(3, a.int);
              aw.int(20, 2);
            } else {
              aw.float(2, a.float);
              aw.int(20, 1);
            }
          });
        }
      });
    });
    gr.string(2, 'g');
    for (const t of g.initializers) {
      gr.message(5, (tw) => {
        for (const d of t.dims) tw.int(1, d);
        tw.int(2, t.data instanceof Float32Array ? ELEM.float : ELEM.int64);
        tw.string(8, t.name);
        tw.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
      });
    }
    for (const v of g.inputs) writeValueInfo(gr, 11, v);
    for (const v of g.outputs) writeValueInfo(gr, 12, v);
  });
  return w.finish();
}
