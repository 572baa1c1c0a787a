import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMarker, errorMarker, imageMarker } from '../../shared/markers';
import { insertConversation } from '../../server/db/repositories/conversations';
import { insertDocument } from '../../server/db/repositories/documents';
import { insertMessage } from '../../server/db/repositories/messages';
import { findUserByEmail } from '../../server/db/repositories/users';
import { conversationMarkdown, exportFileName } from '../../server/services/chat/conversation-export';
import { addUser, bearer, createOrganisation, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

// Exporting a conversation as Markdown (issue 28): the whole conversation, not the page the screen holds.

describe(`GET /chat/conversations/{id}/export.md (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let outsiderToken: string;
  let conversationId: string;
  let user: { name: string };
  const MESSAGES = 130; // more than two pages of MESSAGE_PAGE_SIZE (50)

  beforeAll(async () => {
    t = await createTestApp();
    token = (await login(t.app, 'user@demo.local')).access_token;
    otherToken = (await login(t.app, 'newhire@demo.local')).access_token;
    const me = (await findUserByEmail(t.db, 'user@demo.local'))!;
    user = me;
    const conversation = await insertConversation(t.db, {
      user_id: me.id,
      client_id: me.client_id,
      title: 'Q3 budget: "draft" / review?',
      answering_until: new Date(0).toISOString(),
    });
    conversationId = conversation.id;
    for (let i = 1; i <= MESSAGES; i++) {
      const mine = i % 2 === 1;
      let content = mine ? `Question number ${i}` : `Answer number ${i}`;
      if (i === 1) content += `\n\n${documentMarker('/api/v1/documents/d1/file', 'report *final*.pdf')}`;
      if (i === 2) content += `\n\n${imageMarker('/api/v1/files/abc', 'A bar chart')}\n\n${errorMarker('llm', 'The model did not answer.')}`;
      await insertMessage(t.db, { conversation_id: conversationId, user_id: me.id, sender: mine ? 'user' : 'Assistant', content, status: 'complete' });
    }
    await insertDocument(t.db, {
      user_id: me.id,
      client_id: me.client_id,
      department_id: null,
      unit_id: null,
      conversation_id: conversationId,
      filename: 'budget-2026.xlsx',
      extension: '.xlsx',
      mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      size: 10,
      origin: 'upload',
      storage_key: 'k1',
      file_key: 'fk1',
      status: 'ready',
    });
    const outsiderOrg = await createOrganisation(t.db, { name: 'Other Org' });
    await addUser(t.db, { client_id: outsiderOrg.client.id, name: 'Oscar Outsider', email: 'oscar@other.test', role: 'admin' });
    outsiderToken = (await login(t.app, 'oscar@other.test')).access_token;
  });
  afterAll(() => t.close());

  const get = (id: string, tok: string | null, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/v1/chat/conversations/${id}/export.md${query}`, headers: tok ? bearer(tok) : {} });

  it('answers the whole conversation as a Markdown attachment named after the title', async () => {
    const res = await get(conversationId, token, '?time_zone=Asia/Kuala_Lumpur');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('attachment; filename="Q3 budget draft review.md"');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''Q3%20budget%20draft%20review.md");
    const md = res.body;
    expect(md.startsWith('# Q3 budget: "draft" / review?\n')).toBe(true);
    expect(md).toContain('(Asia/Kuala_Lumpur)');
    expect(md).toContain('**Attached documents:**\n\n- budget-2026.xlsx');
    // Every message, in order, the first page's and the last's alike.
    expect(md.match(/^### /gm)).toHaveLength(MESSAGES);
    expect(md.indexOf('Question number 1\n')).toBeLessThan(md.indexOf('Answer number 2\n'));
    expect(md.indexOf('Answer number 2\n')).toBeLessThan(md.indexOf(`Answer number ${MESSAGES}\n`));
    expect(md).toMatch(new RegExp(`^### ${user.name} · \\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d (AM|PM)$`, 'm'));
    expect(md).toMatch(/^### Tanya · \d\d\/\d\d\/\d{4} \d\d:\d\d (AM|PM)$/m);
    // Markers become words: the attachment by name, the image by its description, the error quoted.
    expect(md).toContain('📎 Attachment: report \\*final\\*.pdf');
    expect(md).toContain('🖼️ Image: A bar chart');
    expect(md).toContain('> **Error:** The model did not answer.');
    expect(md).not.toContain('::document');
    expect(md).not.toContain('/api/v1/files/abc');
  });

  it("is the owner's only: another person of the organisation, or of another, gets 404; no token 401", async () => {
    expect((await get(conversationId, otherToken)).statusCode).toBe(404);
    expect((await get(conversationId, outsiderToken)).statusCode).toBe(404);
    expect((await get(conversationId, null)).statusCode).toBe(401);
    const unknown = await get('00000000-0000-4000-8000-000000000000', token);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 'error', detail: 'Conversation not found' });
  });

  it('refuses an unknown time zone with 400 naming the field', async () => {
    const res = await get(conversationId, token, '?time_zone=Mars/Olympus');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 'error', detail: 'time_zone must be a time zone name such as Asia/Kuala_Lumpur' });
  });
});

describe('export file name and text', () => {
  it('keeps the title readable and safe to save anywhere', () => {
    expect(exportFileName('Budget 2026')).toBe('Budget 2026.md');
    expect(exportFileName('../../etc/passwd')).toBe('etc passwd.md');
    expect(exportFileName('a\u202Efdp.exe')).toBe('afdp.exe.md');
    expect(exportFileName('  ...hidden.  ')).toBe('hidden.md');
    expect(exportFileName('***')).toBe('conversation.md');
    expect(exportFileName('CON')).toBe('CON conversation.md');
    expect(exportFileName('x'.repeat(300))).toBe(`${'x'.repeat(97)}.md`);
  });

  it('writes times in the zone asked, notes stopped replies, and shows an empty message as such', () => {
    const md = conversationMarkdown({
      title: 'Line\nbreak',
      personName: 'Nur',
      messages: [
        { sender: 'user', content: '', created_at: '2026-11-28T06:03:00.000Z', status: 'complete', stopped_at: null },
        { sender: 'Assistant', content: 'Half', created_at: '2026-11-28T06:04:00.000Z', status: 'complete', stopped_at: '2026-11-28T06:04:01.000Z' },
      ],
      attachments: [],
      timeZone: 'Asia/Kuala_Lumpur',
      exportedAt: new Date('2026-11-28T07:00:00.000Z'),
    });
    expect(md).toBe(
      '# Line break\n\nExported from Tanya on 28/11/2026 03:00 PM (Asia/Kuala_Lumpur).\n\n---\n\n### Nur · 28/11/2026 02:03 PM\n\n_(empty)_' +
        '\n\n---\n\n### Tanya · 28/11/2026 02:04 PM (stopped)\n\nHalf\n',
    );
  });
});
