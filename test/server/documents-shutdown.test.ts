import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { startChatServer } from './helpers/chat-fixtures';
import { uploadFile } from './helpers/document-api';
import { PNG_BYTES } from './helpers/document-fixtures';

// A file served over a kept-alive connection once left that connection busy in the server's eyes (a FileHandle
// read stream), so closing the server waited for the client to hang up: a deploy's graceful stop hung.
it('closes at once after serving files over kept-alive connections', async () => {
  const s = await startChatServer();
  const up = await uploadFile(s, null, 'chart.png', PNG_BYTES);
  expect(up.status).toBe(201);
  const origin = new URL(s.apiUrl).origin;
  const image = await fetch(`${origin}${up.body.data.preview_url}`);
  expect(Buffer.from(await image.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
  const download = await fetch(`${origin}${up.body.data.download_url}`, { headers: { authorization: `Bearer ${s.token}` } });
  expect(Buffer.from(await download.arrayBuffer()).equals(PNG_BYTES)).toBe(true);

  const closed = await Promise.race([s.app.close().then(() => 'closed'), sleep(5_000).then(() => 'still open after 5 s')]);
  expect(closed).toBe('closed');
}, 20_000);
