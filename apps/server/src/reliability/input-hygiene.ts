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

/** Paths (a.b.0) of the strings that contain NUL, anywhere in a parsed body or query. */
export function nulPaths(value: unknown, path: string[] = [], out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes(NUL)) out.push(path.join('.') || 'non_field_errors');
  } else if (Array.isArray(value)) value.forEach((v, i) => nulPaths(v, [...path, String(i)], out));
  else if (value && typeof value === 'object' && !Buffer.isBuffer(value))
    for (const [k, v] of Object.entries(value)) {
      if (k.includes(NUL)) out.push('non_field_errors');
      nulPaths(v, [...path, k], out);
    }
  return out;
}

export function rejectNulBytes(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const paths = [...nulPaths(request.body), ...nulPaths(request.query), ...nulPaths(request.params)];
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

/**
 * Errors (@fastify/)busboy and dicer raise for a multipart body that ends early or is not multipart at all. They carry no
 * status code, but they are the client's doing (a dropped connection, a broken client): 400, not 500.
 */
export function isMalformedMultipart(err: unknown): boolean {
  const message = err instanceof Error ? err.message : '';
  return /^(Unexpected end of (form|file|multipart data)|Malformed part header|Multipart: Boundary not found|Malformed urlencoded form)/.test(
    message,
  );
}
