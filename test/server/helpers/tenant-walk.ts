import { randomBytes } from 'node:crypto';
import { schemaParts, type Operation, type OperationInput } from './openapi-inputs';
import type { RichTenant } from './tenants';

// How the cross-tenant walk fills an operation's inputs: every id with one of organisation A's, every other required
// input with a minimal valid value, so the route gets as far as deciding whose record it is.

/** An input that names a record (`id`, `unitId`, `client_id`, `message_id_to_edit`, `document_ids`, `key`...). */
export const namesRecord = (input: OperationInput) =>
  input.in === 'path' || /(^|_)ids?(_|$)/i.test(input.name);

/** A's id for a path parameter, by the segment before it: `/users/{id}` is a person, `/documents/{id}` a document. */
function pathIds(a: RichTenant): Record<string, string> {
  return {
    'users/{id}': a.user.id,
    // A client's quota: /quotas/client/{id}.
    'client/{id}': a.clientId,
    'departments/{id}': a.departmentId,
    'units/{unitId}': a.unitId,
    'conversations/{id}': a.conversationId,
    'messages/{id}': a.replyId,
    'shares/{shareId}': a.shareId,
    'upload/{conversationId}': a.conversationId,
    'documents/{id}': a.documentId,
    'files/{key}': a.imageKey,
    'prompt-libraries/{id}': a.promptId,
    'clients/{id}': a.clientId,
    // The superuser's own records, of no organisation's people: an id nobody holds, so every caller is refused.
    'oauth-configs/{configId}': 'no-such-oauth-config',
    'system-prompts/{id}': 'no-such-system-prompt',
  };
}

/** A's id for a query or body field, by its name. */
function fieldIds(a: RichTenant): Record<string, unknown> {
  return {
    client_id: a.clientId,
    user_id: a.user.id,
    conversation_id: a.conversationId,
    message_id_to_edit: a.questionId,
    department_id: a.departmentId,
    unit_id: a.unitId,
    department_ids: a.departmentId,
    unit_ids: a.unitId,
    document_ids: [a.documentId],
    // An OAuth provider's own identifiers (named like ids), not records of anyone's here.
    provider_client_id: 'probe-provider-client',
    tenant_id: 'probe-provider-tenant',
    // A package is the platform's, no organisation's record: an id nobody holds.
    package_id: 'no-such-package',
  };
}

/** The mapping an input's id comes from: `departments/{id}` for a path parameter, the field's name otherwise. */
export function idKey(op: Operation, input: OperationInput): string {
  if (input.in !== 'path') return input.name;
  const upToParam = op.path.slice(0, op.path.indexOf(`{${input.name}}`) + input.name.length + 2);
  return `${/([^/]+)\/\{\w+\}$/.exec(upToParam)?.[1]}/{${input.name}}`;
}

/** Every mapping of A's ids: the walk must have used each (an unused one is a route gone or renamed). */
export const mappedIdKeys = (a: RichTenant) => [...Object.keys(pathIds(a)), ...Object.keys(fieldIds(a))];

/** A's id for an input that names a record; throws (failing the walk) for one nobody has mapped yet. */
export function tenantIdFor(op: Operation, input: OperationInput, a: RichTenant): unknown {
  const key = idKey(op, input);
  const id = input.in === 'path' ? pathIds(a)[key] : fieldIds(a)[key];
  if (id === undefined) throw new Error(`${op.method} ${op.path}: map the ${input.in} input "${key}" to one of A's ids in tenant-walk.ts`);
  return id;
}

let probes = 0;

/** A minimal valid value for an input that is not an id: the first of an enum, the shortest string allowed. */
export function probeValue(input: OperationInput): unknown {
  const parts = schemaParts(input.schema);
  const choice = parts.flatMap((p) => p.enum ?? []).find((v) => v !== null);
  if (choice !== undefined) return choice;
  const types = new Set(parts.flatMap((p) => [p.type ?? []].flat()));
  // A required list gets one item: an empty one may be refused before the route looks at whose record it is.
  const items = parts.map((p) => (p as { items?: OperationInput['schema'] }).items).find(Boolean);
  if (types.has('array')) return items ? [probeValue({ ...input, schema: items })] : [];
  if (types.has('boolean')) return false;
  if (types.has('integer') || types.has('number')) return parts.find((p) => p.minimum !== undefined)?.minimum ?? 1;
  // Addresses never taken: a registration or a reset by the caller touches nobody of A.
  if (input.name === 'email') return `probe-${(probes += 1)}-${randomBytes(3).toString('hex')}@probe.test`;
  const minLength = Math.max(...parts.map((p) => p.minLength ?? 1));
  return 'probe-value'.padEnd(minLength, 'x');
}

/** The ways an operation is called: with no optional id, with each alone, and with all of them (required ones always). */
export function inputVariants(op: Operation, a: RichTenant) {
  const required = op.inputs.filter((i) => i.required);
  const optionalIds = op.inputs.filter((i) => !i.required && namesRecord(i));
  const sets = [[], ...optionalIds.map((i) => [i]), ...(optionalIds.length > 1 ? [optionalIds] : [])];
  return sets.map((optional) => {
    const values: Record<OperationInput['in'], Record<string, unknown>> = { path: {}, query: {}, body: {} };
    for (const input of [...required, ...optional]) {
      values[input.in][input.name] = namesRecord(input) ? tenantIdFor(op, input, a) : probeValue(input);
    }
    const ids = [...required, ...optional].filter(namesRecord);
    return { values, idsOfA: ids.map((i) => i.name), idKeys: ids.map((i) => idKey(op, i)) };
  });
}

/** A multipart body with one small text file, for the upload routes (the OpenAPI document lists no JSON body for them). */
export function multipartProbe() {
  const boundary = `probe${randomBytes(8).toString('hex')}`;
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="probe.txt"\r\nContent-Type: text/plain\r\n\r\n` +
      `probe text\r\n--${boundary}--\r\n`,
  );
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}
