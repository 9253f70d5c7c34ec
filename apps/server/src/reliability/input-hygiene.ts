// NUL (U+0000) is valid JSON and valid UTF-8, but PostgreSQL refuses it in text columns, so one stray
// byte would be a 500 on PostgreSQL and a stored value on SQLite. Requests carrying it are refused with
// a field error before any handler runs; values that reach the database another way (multipart fields,
// transcripts read from files) lose it in the query plugin below, on both dialects alike.
import { OperationNodeTransformer } from 'kysely';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  PrimitiveValueListNode,
  QueryResult,
  RootOperationNode,
  UnknownRow,
  ValueNode,
} from 'kysely';
import type { FastifyInstance } from 'fastify';
import { fieldError } from '../errors.ts';

const NUL = '\u0000';

/** JSON bodies of this API are a few levels deep; anything deeper is refused before it is walked. */
export const MAX_JSON_DEPTH = 32;

export class TooDeepError extends Error {}

interface Pending {
  value: unknown;
  depth: number;
  /** the parent's entry and this value's key in it: the path is rebuilt only for a value with NUL */
  parent: Pending | null;
  key: string;
}

function pathOf(node: Pending): string {
  const keys: string[] = [];
  for (let n: Pending | null = node; n?.parent; n = n.parent) keys.push(n.key);
  return keys.reverse().join('.') || 'non_field_errors';
}

/**
 * Paths (a.b.0) of the strings that contain NUL, anywhere in a parsed body or query. One pass with an
 * explicit stack: linear in the size of the value (a path is built only for a hit) and no recursion, so
 * nesting cannot exhaust the call stack; deeper than `maxDepth` throws TooDeepError.
 */
export function nulPaths(value: unknown, maxDepth = MAX_JSON_DEPTH): string[] {
  const out: string[] = [];
  const stack: Pending[] = [{ value, depth: 0, parent: null, key: '' }];
  while (stack.length) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      if (v.includes(NUL)) out.push(pathOf(node));
      continue;
    }
    if (!v || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (node.depth >= maxDepth) throw new TooDeepError(`nested deeper than ${maxDepth} levels`);
    const depth = node.depth + 1;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], depth, parent: node, key: String(i) });
    } else {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        if (k.includes(NUL)) out.push('non_field_errors');
        stack.push({ value: child, depth, parent: node, key: k });
      }
    }
  }
  return out;
}

function pathsOrTooDeep(value: unknown): string[] {
  try {
    return nulPaths(value);
  } catch (err) {
    if (!(err instanceof TooDeepError)) throw err;
    throw fieldError({
      non_field_errors: [`The request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels).`],
    });
  }
}

export function rejectNulBytes(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const paths = [
      ...pathsOrTooDeep(request.body),
      ...pathsOrTooDeep(request.query),
      ...pathsOrTooDeep(request.params),
    ];
    if (paths.length === 0) return;
    const fields: Record<string, string[]> = {};
    for (const p of paths) fields[p] = ['This value contains a NUL character, which is not allowed.'];
    throw fieldError(fields);
  });
}

const strip = (v: unknown): unknown => (typeof v === 'string' && v.includes(NUL) ? v.replaceAll(NUL, '') : v);

class StripNul extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return { ...node, value: strip(node.value) };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map(strip) };
  }
}

export class StripNulPlugin implements KyselyPlugin {
  private readonly transformer = new StripNul();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
