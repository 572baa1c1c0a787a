import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { featureNotIncluded } from '../../contract/features';
import { errorMarker, imageMarker } from '../../shared/markers';
import { ConfigError, loadConfig } from '../../server/config';
import { LLM_FAILED } from '../../server/services/chat/chat-stream';
import { drawDemoImage } from '../../server/services/chat/tools/demo-image';
import { DEMO_IMAGE_NOTICE, IMAGE_READY } from '../../server/services/chat/tools/image-generation';
import type { ReplyStopResult } from '../../contract/chat';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';
import { addUser, createOrganisation, login } from './helpers/fixtures';
import { readSse, type SseEvent } from './helpers/sse';
import { dbKind } from './helpers/test-app';

const KEY = 'sk-test-images-0123456789';
const PNG = drawDemoImage('a test image from the fake model');
/** The start of a JPEG (SOI, JFIF APP0): what content sniffing recognises. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(200, 7), Buffer.from([0xff, 0xd9])]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'ascii'), Buffer.alloc(40, 1)]);

/** The file key in the reply's image marker. */
function fileKeyIn(text: string): string {
  const key = /::image\{url="\/api\/v1\/files\/([^"]+)"/.exec(text)?.[1];
  if (!key) throw new Error(`no image marker in ${JSON.stringify(text)}`);
  return key;
}

describe(`image generation with an images endpoint (${dbKind})`, () => {
  let model: FakeOpenAi;
  let s: ChatServer;
  let freeToken: string;

  beforeAll(async () => {
    model = await startFakeOpenAi();
    s = await startChatServer({
      env: {
        LLM_BASE_URL: model.baseUrl,
        LLM_API_KEY: KEY,
        LLM_MODEL: 'gpt-4o-mini',
        IMAGES_MODEL: 'gpt-image-1',
        // Images answered by URL come from the fake on 127.0.0.1: let exactly that host:port past the SSRF guard.
        WEB_FETCH_ALLOW_HOSTS: new URL(model.baseUrl).host,
      },
    });
    const free = await createOrganisation(s.db, { name: 'Free Painters', packageType: 'free' });
    await addUser(s.db, { client_id: free.client.id, name: 'Pia Free', email: 'pia@free.example' });
    freeToken = (await login(s.app, 'pia@free.example')).access_token;
  });
  afterEach(() => model.respondImages(() => ({ kind: 'http-error', status: 404 })));
  afterAll(async () => {
    await s?.close();
    await model?.close();
  });

  const documentByKey = (key: string) => s.db.selectFrom('documents').selectAll().where('file_key', '=', key).executeTakeFirst();
  const documentsOf = (conversationId: string) => s.db.selectFrom('documents').selectAll().where('conversation_id', '=', conversationId).execute();
  // Through app.inject: a keep-alive fetch of GET /files/{key} was seen to hold app.close() for up to 30 s (reported).
  const fetchFile = (key: string) => s.app.inject({ method: 'GET', url: `/api/v1/files/${key}` });

  it('stores a b64_json image as the new conversation\'s file and answers with its marker', async () => {
    model.respondImages(() => ({ kind: 'b64', image: PNG, usage: { input_tokens: 12, output_tokens: 4160 } }));
    const question = 'Draw a teal lighthouse on a rocky cape';
    const reply = await s.ask({ conversation_id: null, message: question, image_generation: true });

    expect(model.imageRequests.at(-1)).toEqual({
      body: { model: 'gpt-image-1', prompt: question, n: 1, size: '1024x1024' },
      // No IMAGES_BASE_URL: the chat model's endpoint, and so its key.
      authorization: `Bearer ${KEY}`,
    });
    const key = fileKeyIn(reply.text);
    expect(reply.errors).toEqual([]);
    expect(reply.text).toBe(`${IMAGE_READY}\n\n${imageMarker(`/api/v1/files/${key}`, question)}`);

    const row = await documentByKey(key);
    expect(row).toMatchObject({
      conversation_id: reply.control.conversation_id,
      user_id: s.userId,
      origin: 'generated',
      mime: 'image/png',
      extension: '.png',
      size: PNG.length,
      status: 'ready',
    });
    const served = await fetchFile(key);
    expect([served.statusCode, served.headers['content-type'], served.rawPayload.equals(PNG)]).toEqual([200, 'image/png', true]);

    // The reply's usage is the image model's, as it reported it.
    const usage = await s.db.selectFrom('usage_logs').selectAll().where('message_id', '=', reply.control.message_id).where('purpose', '=', 'reply').execute();
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ model: 'gpt-image-1', prompt_tokens: 12, completion_tokens: 4160 });
    // No chat completion was asked for this reply.
    expect(model.requests.some((r) => r.body.messages.at(-1)?.content === question)).toBe(false);
  });

  it('fetches a url answer through the guard and stores it by its real type', async () => {
    model.respondImages(() => ({ kind: 'url', image: JPEG, contentType: 'image/jpeg' }));
    const first = await s.ask({ conversation_id: null, message: 'Start a chat', image_generation: false });
    const reply = await s.ask({ conversation_id: first.control.conversation_id, message: 'Now a photo of the ferry', image_generation: true });
    const row = await documentByKey(fileKeyIn(reply.text));
    expect(row).toMatchObject({ conversation_id: first.control.conversation_id, mime: 'image/jpeg', extension: '.jpg', size: JPEG.length });
    const served = await fetchFile(row!.file_key);
    expect([served.statusCode, served.headers['content-type'], served.rawPayload.equals(JPEG)]).toEqual([200, 'image/jpeg', true]);
  });

  it('ends the reply with the model error marker when the image cannot be had, and stores nothing', async () => {
    const cases: Parameters<FakeOpenAi['respondImages']>[0][] = [
      () => ({ kind: 'http-error', status: 500 }),
      // A URL leading to the cloud metadata service: refused by the SSRF guard, never fetched.
      () => ({ kind: 'url', url: 'http://169.254.169.254/latest/meta-data/image.png' }),
      // A URL serving something that is not an image.
      () => ({ kind: 'url', image: Buffer.from('<html>no</html>'), contentType: 'text/html' }),
      // An image type that is not kept.
      () => ({ kind: 'b64', image: GIF }),
    ];
    for (const behaviour of cases) {
      model.respondImages(behaviour);
      const reply = await s.ask({ conversation_id: null, message: 'Draw something that fails', image_generation: true });
      expect(reply.text).toBe(errorMarker('llm', LLM_FAILED));
      expect(reply.errors).toEqual([{ type: 'llm', message: LLM_FAILED }]);
      expect(await documentsOf(reply.control.conversation_id)).toEqual([]);
    }
  });

  it('stops an image request under way: the call is cancelled, nothing is stored, the reply ends as stopped', async () => {
    model.respondImages(() => ({ kind: 'hang' }));
    const before = model.imageRequests.length;
    const res = await s.send({ conversation_id: null, message: 'Draw a very slow picture', image_generation: true });
    const events = readSse(res.body!);
    const control = JSON.parse((await events.next()).value!.data) as { conversation_id: string; message_id: string };
    await eventually(async () => model.imageRequests.length > before);
    const stop = await s.api<ReplyStopResult>('POST', `/chat/messages/${control.message_id}/stop`);
    expect(stop.body.data).toEqual({ message_id: control.message_id, stopped: true });
    const rest: SseEvent[] = [];
    for await (const e of { [Symbol.asyncIterator]: () => events }) rest.push(e);
    expect(rest.map((e) => e.event)).toEqual(['done']);
    expect(JSON.parse(rest[0].data)).toMatchObject({ message_id: control.message_id, stopped: true });
    expect(await documentsOf(control.conversation_id)).toEqual([]);
  });

  it('refuses image generation to a package without it (403) and sends nothing to the model', async () => {
    const before = model.imageRequests.length;
    const res = await s.api('POST', '/chat/messages', {
      token: freeToken,
      body: { conversation_id: null, message: 'Draw a cat', image_generation: true },
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe(featureNotIncluded('image_generation'));
    expect(model.imageRequests.length).toBe(before);
  });
});

describe(`image generation offline (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s?.close());

  it('answers with a labelled demo image made locally, stored and served like a generated one', async () => {
    const question = 'Paint a sunset over the Straits of Malacca';
    const reply = await s.ask({ conversation_id: null, message: question, image_generation: true });
    const key = fileKeyIn(reply.text);
    expect(reply.text).toBe(`${DEMO_IMAGE_NOTICE}\n\n${imageMarker(`/api/v1/files/${key}`, question)}`);
    expect(reply.errors).toEqual([]);

    const row = await s.db.selectFrom('documents').selectAll().where('file_key', '=', key).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ conversation_id: reply.control.conversation_id, origin: 'generated', mime: 'image/png', status: 'ready' });
    const served = await s.app.inject({ method: 'GET', url: `/api/v1/files/${key}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const bytes = served.rawPayload;
    expect(bytes.equals(drawDemoImage(question))).toBe(true);
    expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  });

  it('draws different images for different prompts', () => {
    expect(drawDemoImage('one').equals(drawDemoImage('two'))).toBe(false);
    expect(drawDemoImage('one').equals(drawDemoImage('one'))).toBe(true);
  });
});

describe('tools configuration', () => {
  const bad = (env: Record<string, string>) => {
    try {
      loadConfig({ DATA_DIR: '/tmp/tanya-config-test', ...env });
    } catch (err) {
      if (err instanceof ConfigError) return err.message;
      throw err;
    }
    return undefined;
  };

  it('explains what is missing', () => {
    expect(bad({ SEARCH_PROVIDER: 'searxng' })).toContain('SEARCH_URL: required for SearXNG');
    expect(bad({ SEARCH_PROVIDER: 'tavily' })).toContain('SEARCH_API_KEY: required for Tavily');
    expect(bad({ SEARCH_PROVIDER: 'bing', SEARCH_API_KEY: 'k' })).toContain('SEARCH_PROVIDER: must be searxng, tavily or brave');
    expect(bad({ SEARCH_URL: 'https://search.example.com' })).toContain('SEARCH_URL: needs SEARCH_PROVIDER');
    expect(bad({ WEB_FETCH_ALLOW_HOSTS: 'intranet.example.com' })).toContain('WEB_FETCH_ALLOW_HOSTS: must be a comma-separated list of host:port pairs');
    expect(bad({ IMAGES_BASE_URL: 'https://images.example.com/v1' })).toContain('IMAGES_BASE_URL: needs IMAGES_MODEL');
    expect(bad({ IMAGES_MODEL: 'dall-e-3' })).toContain('IMAGES_API_KEY: required for the OpenAI API');
  });

  it('shares the chat key only with the chat endpoint', () => {
    const base = { LLM_MODEL: 'gpt-4o', LLM_API_KEY: 'sk-chat', IMAGES_MODEL: 'dall-e-3' };
    expect(loadConfig({ ...base }).tools.images).toEqual({ baseUrl: undefined, apiKey: 'sk-chat', model: 'dall-e-3', size: '1024x1024' });
    expect(loadConfig({ ...base, IMAGES_BASE_URL: 'https://img.example.com/v1' }).tools.images?.apiKey).toBeUndefined();
    const config = loadConfig({ SEARCH_PROVIDER: 'brave', SEARCH_API_KEY: 'k', WEB_FETCH_ALLOW_HOSTS: 'Wiki.Example.com:443, [::1]:8080' });
    expect(config.tools.search).toEqual({ provider: 'brave', url: undefined, apiKey: 'k' });
    expect(config.tools.webFetchAllowHosts).toEqual(['wiki.example.com:443', '[::1]:8080']);
    expect(loadConfig({}).tools).toEqual({ search: undefined, webFetchAllowHosts: [], images: undefined });
  });
});
