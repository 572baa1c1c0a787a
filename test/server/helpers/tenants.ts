import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { API_PREFIX } from '../../../contract/api-paths';
import { eventually, type ChatServer } from './chat-fixtures';
import { PNG_BYTES } from './document-fixtures';
import { uploadFile } from './document-api';
import { addUser, bearer, createOrganisation, login } from './fixtures';
import { seedUsage } from './usage-seed';

/** A string that occurs in nothing but what one organisation's people wrote: found in a body, it is a leak. */
export const tenantMarker = (tenant: string) => `leak-${tenant}-${randomBytes(5).toString('hex')}`;

/** Organisation A: one of everything a person or admin can make, every text carrying A's marker. */
export interface RichTenant {
  marker: string;
  clientId: string;
  admin: { id: string; headers: Record<string, string> };
  user: { id: string; headers: Record<string, string> };
  /** The department and unit A's admin made (marker names); the user sits in createOrganisation's. */
  departmentId: string;
  unitId: string;
  conversationId: string;
  questionId: string;
  replyId: string;
  documentId: string;
  /** The stored key of an image attached to the conversation (GET /files/{key}). */
  imageKey: string;
  shareId: string;
  promptId: string;
}

/** An organisation with just an admin and a user, to call A's routes from. */
export interface PlainTenant {
  marker: string;
  clientId: string;
  admin: { id: string; headers: Record<string, string> };
  user: { id: string; headers: Record<string, string> };
}

async function inject(s: ChatServer, method: 'POST' | 'PUT' | 'PATCH', url: string, headers: Record<string, string>, payload?: object) {
  const res: LightMyRequestResponse = await s.app.inject({ method, url: `${API_PREFIX}${url}`, headers, payload });
  if (res.statusCode !== 200) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json().data as Record<string, string>;
}

/** An organisation (premium: documents and every tool) with an admin and a user placed in its department. */
async function tenantWithPeople(s: ChatServer, marker: string): Promise<PlainTenant & { department: { id: string }; unit: { id: string } }> {
  const { client, department, unit } = await createOrganisation(s.db, { name: `Org ${marker}`, packageType: 'premium' });
  const person = async (role: 'admin' | 'user') => {
    const record = await addUser(s.db, {
      client_id: client.id,
      role,
      name: `${role} ${marker}`,
      email: `${role}.${marker}@tenant.test`.toLowerCase(),
      status: 'active',
      ...(role === 'user' ? { department_id: department.id, unit_id: unit.id } : {}),
    });
    return { id: record.id, headers: bearer((await login(s.app, record.email)).access_token) };
  };
  return { marker, clientId: client.id, admin: await person('admin'), user: await person('user'), department, unit };
}

/** An organisation with an admin and a user, who has sent feedback (so a list that mixes organisations shows). */
export async function seedPlainTenant(s: ChatServer, name: string): Promise<PlainTenant> {
  const { department: _d, unit: _u, ...tenant } = await tenantWithPeople(s, tenantMarker(name));
  await inject(s, 'POST', '/feedbacks/', tenant.user.headers, { type: 'report', description: `Report ${tenant.marker}` });
  return tenant;
}

/**
 * Organisation A through the API as its people use it: a conversation with a question and a reply, renamed, a
 * document and an image attached, shared, the reply rated with a comment, feedback sent, a prompt saved; the admin
 * adds a department with a unit and sets the policy; usage rows beside the ones the reply wrote.
 */
export async function seedRichTenant(s: ChatServer, name: string): Promise<RichTenant> {
  const marker = tenantMarker(name);
  const base = await tenantWithPeople(s, marker);
  const { admin, user } = base;

  const token = user.headers.authorization.slice('Bearer '.length);
  const asked = await s.ask({ message: `Question ${marker}` }, token);
  const conversationId = asked.control.conversation_id;
  // The title job names the conversation from the question: done before the rename, so it cannot overwrite it.
  await settled(s, 'conversation-title');
  await inject(s, 'PATCH', `/chat/conversations/${conversationId}/rename?title=${encodeURIComponent(`Title ${marker}`)}`, user.headers);

  const document = await uploadFile(s, conversationId, `notes-${marker}.txt`, Buffer.from(`Notes ${marker}\n`), { token, type: 'text/plain' });
  const image = await uploadFile(s, conversationId, `image-${marker}.png`, PNG_BYTES, { token, type: 'image/png' });
  for (const uploaded of [document, image]) {
    if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}: ${JSON.stringify(uploaded.body)}`);
  }
  const stored = await s.db.selectFrom('documents').select('file_key').where('id', '=', image.body.data.id).executeTakeFirstOrThrow();

  const share = await inject(s, 'POST', `/shares/conversations/${conversationId}`, user.headers);
  const prompt = await inject(s, 'POST', '/prompt-libraries/', user.headers, { prompt: `Prompt ${marker}`, tags: [`tag-${marker}`] });
  await inject(s, 'PUT', `/chat/messages/${asked.control.message_id}/rating`, user.headers, { rating: 'down', comment: `Comment ${marker}` });
  await inject(s, 'POST', '/feedbacks/', user.headers, { type: 'feedback', level: 'GOOD', description: `Feedback ${marker}` });

  const department = await inject(s, 'POST', '/departments/', admin.headers, { name: `Department ${marker}` });
  const unit = await inject(s, 'POST', `/departments/${department.id}/units`, admin.headers, { name: `Unit ${marker}` });
  await inject(s, 'PUT', '/global-policy/', admin.headers, { policy_prompt: `Policy ${marker}` });
  await seedUsage(s.db, [
    {
      user: { id: user.id, client_id: base.clientId },
      department_id: base.department.id,
      unit_id: base.unit.id,
      prompt_tokens: 11,
      completion_tokens: 7,
      created_at: new Date().toISOString(),
      times: 3,
    },
  ]);

  // Ingested before anyone looks: A's records read the same before and after the walk.
  await settled(s, 'ingest-document');
  return {
    marker,
    clientId: base.clientId,
    admin,
    user,
    departmentId: department.id,
    unitId: unit.id,
    conversationId,
    questionId: asked.control.user_message_id,
    replyId: asked.control.message_id,
    documentId: document.body.data.id,
    imageKey: stored.file_key,
    shareId: share.share_id,
    promptId: prompt.id,
  };
}

/** Waits until no job of that name is queued or running. */
async function settled(s: ChatServer, job: string): Promise<void> {
  await eventually(async () => {
    const pending = await s.db.selectFrom('jobs').select('id').where('name', '=', job).where('status', '!=', 'failed').execute();
    return pending.length === 0;
  });
}
