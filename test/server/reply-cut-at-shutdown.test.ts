import { expect, it } from 'vitest';
import { errorMarker } from '../../shared/markers';
import { REPLY_INTERRUPTED } from '../../server/services/chat/reply-leases';
import { startChatServer } from './helpers/chat-fixtures';
import { readSse } from './helpers/sse';
import { dbKind } from './helpers/test-app';

// A deploy stops the server: replies still being written get a few seconds (REPLY_GRACE_MS in app.ts), then are cut
// off and saved. The reader who comes back finds what was written and why it stops there, as after a crash.

it(`a reply cut off by a shutdown keeps its text and says it was interrupted (${dbKind})`, async () => {
  // Slow enough that the reply outlasts the grace period (about 130 words at 100 ms).
  const s = await startChatServer({ env: { OFFLINE_TOKEN_DELAY_MS: '100' } });
  try {
    const res = await s.send({ conversation_id: null, message: 'Explain our travel policy in detail' });
    const events = readSse(res.body!);
    const control = JSON.parse((await events.next()).value!.data) as { conversation_id: string; message_id: string };
    await events.next();
    await s.app.close();

    const reply = await s.db.selectFrom('messages').select(['status', 'content']).where('id', '=', control.message_id).executeTakeFirstOrThrow();
    expect(reply.status).toBe('error');
    expect(reply.content).toMatch(new RegExp(`^\\S.*\\n\\n${escape(errorMarker('llm', REPLY_INTERRUPTED))}$`, 's'));
    const lease = await s.db.selectFrom('conversations').select('answering_until').where('id', '=', control.conversation_id).executeTakeFirstOrThrow();
    expect(lease.answering_until).toBeNull();
  } finally {
    await s.close();
  }
}, 20_000);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
