import type { FastifyInstance } from 'fastify';

/** The parts of a JSON schema (as the OpenAPI document gives it) that say what a value may be. */
export interface ValueSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: ValueSchema[];
  oneOf?: ValueSchema[];
  allOf?: ValueSchema[];
}

/** One input of one operation: a path or query parameter, or a property of the JSON body. */
export interface OperationInput {
  in: 'path' | 'query' | 'body';
  name: string;
  required: boolean;
  schema: ValueSchema;
}

export interface Operation {
  method: string;
  /** OpenAPI form: `/api/v1/chat/conversations/{id}`. */
  path: string;
  inputs: OperationInput[];
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema?: ValueSchema }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, ValueSchema>; required?: string[] } }> };
}

/** Every operation of the app's OpenAPI document with its inputs: what a test walks instead of a hand-picked list. */
export async function apiOperations(app: FastifyInstance): Promise<Operation[]> {
  const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
  const doc = res.json() as { paths: Record<string, Record<string, OpenApiOperation>> };
  return Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => {
      const inputs: OperationInput[] = (op.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((p) => ({ in: p.in as 'path' | 'query', name: p.name, required: p.required ?? false, schema: p.schema ?? {} }));
      const body = op.requestBody?.content?.['application/json']?.schema;
      for (const [name, schema] of Object.entries(body?.properties ?? {})) {
        inputs.push({ in: 'body', name, required: body?.required?.includes(name) ?? false, schema });
      }
      return { method: method.toUpperCase(), path, inputs };
    }),
  );
}

/** The schema and every alternative or part of it (`anyOf`, `oneOf`, `allOf`), flattened. */
export function schemaParts(schema: ValueSchema): ValueSchema[] {
  return [schema, ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap(schemaParts)];
}

/** The types a schema allows, from every part of it. */
export function schemaTypes(schema: ValueSchema): Set<string> {
  const types = new Set<string>();
  for (const part of schemaParts(schema)) {
    for (const type of [part.type ?? []].flat()) types.add(type);
    if (part.enum?.some((v) => typeof v === 'string') || typeof part.const === 'string') types.add('string');
  }
  return types;
}

/**
 * The request for an operation with the given values: path parameters fill the path (`x` when not given), query
 * values the query string (an array repeats the name), body values a JSON body (sent only when the operation has one).
 */
export function requestFor(
  op: Operation,
  values: Partial<Record<OperationInput['in'], Record<string, unknown>>>,
  headers: Record<string, string> = {},
) {
  const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values.path?.[name] ?? 'x')));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values.query ?? {})) {
    for (const item of [value].flat()) query.append(name, String(item));
  }
  const hasBody = op.inputs.some((input) => input.in === 'body');
  return {
    method: op.method as 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: query.size ? `${url}?${query}` : url,
    headers: hasBody ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(hasBody ? { payload: JSON.stringify(values.body ?? {}) } : {}),
  };
}
