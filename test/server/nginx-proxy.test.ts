import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineReply } from '../../server/llm/offline';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { uploadFile } from './helpers/document-api';
import { pdfFile } from './helpers/document-fixtures';
import { startNginx, type Nginx } from './helpers/nginx';
import { readSse } from './helpers/sse';
import { dbKind } from './helpers/test-app';

// The proxy settings compose.yaml gives nginx (deploy/nginx/tanya-proxy.conf), tried for real with Debian's nginx
// in front of an instance: a reply must arrive token by token through it, not held until a buffer fills.

describe(`through nginx with the deployment's proxy settings (${dbKind})`, () => {
  let s: ChatServer;
  let proxy: Nginx;
  beforeAll(async () => {
    // 130 words 20 ms apart: about 2.6 s of streaming.
    s = await startChatServer({ env: { OFFLINE_TOKEN_DELAY_MS: '20' } });
    proxy = await startNginx([new URL(s.apiUrl).host]);
  }, 30_000);
  afterAll(async () => {
    await proxy?.stop();
    await s?.close();
  });

  it('streams a reply token by token, whole, as the instance writes it', async () => {
    const question = 'Does the proxy hold my reply?';
    const res = await fetch(`${proxy.url}/api/v1/chat/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: null, message: question }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const arrivals: number[] = [];
    let text = '';
    let control = true;
    for await (const event of readSse(res.body!)) {
      if (event.event === 'done') break;
      if (event.event !== 'message') continue;
      // The first record is the control record (ids), the rest the reply's text.
      if (control) {
        control = false;
        continue;
      }
      arrivals.push(performance.now());
      text += JSON.parse(event.data) as string;
    }
    expect(text).toBe(offlineReply(question));
    // Buffered, the whole reply (about 1 KB, under one proxy buffer) would arrive at once at its end.
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(1_500);
    const spread = new Set(arrivals.map((t) => Math.floor((t - arrivals[0]!) / 250)));
    expect(spread.size).toBeGreaterThanOrEqual(6);
  });

  it('passes an upload on and a download back byte for byte', async () => {
    const conversationId = (await s.ask({ conversation_id: null, message: 'Files through the proxy' })).control.conversation_id;
    const bytes = pdfFile(['Carried through nginx']);
    const uploaded = await uploadFile({ apiUrl: `${proxy.url}/api/v1`, token: s.token }, conversationId, 'proxy.pdf', bytes);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const res = await fetch(`${proxy.url}/api/v1/documents/${uploaded.body.data.id}/file`, { headers: { authorization: `Bearer ${s.token}` } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
  });
});
