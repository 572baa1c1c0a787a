import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentView } from '../../contract/documents';
import { documentMarker } from '../../shared/markers';
import { MAX_PASSAGES, MAX_PER_DOCUMENT } from '../../server/services/chat/retrieval';
import { PASSAGES_INSTRUCTION, readPassages } from '../../server/llm/retrieval-prompt';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { uploadFile } from './helpers/document-api';
import { countTurnTokens, IMAGE_TOKENS } from '../../server/services/chat/usage';
import { docxFile, pdfFile, PNG_BYTES } from './helpers/document-fixtures';
import { startFakeEmbeddings, type FakeEmbeddings } from './helpers/fake-embeddings';
import { isTitleRequest, startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';

// Retrieval in the send path: the conversation's documents searched (full-text, fused with vectors when there are
// embeddings), the passages in the model's system prompt with names and places, the reply citing them.

async function upload(s: ChatServer, conversationId: string | null, filename: string, bytes: Uint8Array, token?: string): Promise<DocumentView> {
  const up = await uploadFile(s, conversationId, filename, bytes, { token });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  return eventually(async () => {
    const res = await s.api<DocumentView>('GET', `/documents/${up.body.data.id}`, { token });
    return res.body.data.status === 'ready' ? res.body.data : undefined;
  }, 15_000);
}

const fileUrl = (id: string) => `/api/v1/documents/${id}/file`;

const HANDBOOK = docxFile([
  '# Leave',
  'Annual leave is 18 days a year; unused days lapse in March.',
  '# Expenses',
  'Claims above RM 500 need the approval of a department head within 30 days.',
  '# Equipment',
  'Laptops are refreshed every three years by the IT service desk.',
]);
const REPORT = pdfFile([
  'The Penang plant produced 40,000 units in 2026.',
  'Revenue grew because the Penang plant doubled its output.',
  'Outlook: a second plant in Kedah from 2028.',
]);

describe('retrieval with the offline responder', () => {
  let s: ChatServer;
  let handbook: DocumentView;
  let report: DocumentView;
  let conversationId: string;

  beforeAll(async () => {
    s = await startChatServer();
    handbook = await upload(s, null, 'handbook.docx', HANDBOOK);
    // Attached on the new-chat screen: the first message brings it along and its passages answer that message.
    const first = await s.ask({ message: 'How many days of annual leave do I get?', document_ids: [handbook.id] });
    conversationId = first.control.conversation_id;
    expect(first.text).toContain('The attached documents hold these passages about it:');
    expect(first.text).toContain('> Annual leave is 18 days a year; unused days lapse in March\\. [1]');
    expect(first.text.endsWith(documentMarker(fileUrl(handbook.id), '[1] handbook.docx, Leave'))).toBe(true);
    report = await upload(s, conversationId, 'report.pdf', REPORT);
  });
  afterAll(async () => {
    await s.close();
  });

  it('quotes the passage that answers the question first, escaped, and cites each source with its place', async () => {
    const reply = await s.ask({ conversation_id: conversationId, message: "What's the approval rule for expense claims above RM 500?" });
    // The quote is escaped like the question (no markdown or markers from a document's text).
    expect(reply.text).toContain('> Claims above RM 500 need the approval of a department head within 30 days\\. [1]');
    expect(reply.text).not.toContain('Penang');
    expect(reply.text.endsWith(documentMarker(fileUrl(handbook.id), '[1] handbook.docx, Expenses'))).toBe(true);
  });

  it('cites pages of a PDF, the best page first, several passages each with its own marker', async () => {
    const reply = await s.ask({ conversation_id: conversationId, message: 'Penang plant output' });
    const markers = reply.text.split('\n').filter((line) => line.startsWith('::document'));
    // Page 3 shares only 'plant' with the question: below the floor with bm25 (SQLite weighs the common word down),
    // last with ts_rank_cd (PostgreSQL counts matches, not their rarity).
    expect(markers.slice(0, 2)).toEqual([
      documentMarker(fileUrl(report.id), '[1] report.pdf, page 2'),
      documentMarker(fileUrl(report.id), '[2] report.pdf, page 1'),
    ]);
    expect(markers.slice(2)).toEqual(markers.length > 2 ? [documentMarker(fileUrl(report.id), '[3] report.pdf, page 3')] : []);
    expect(reply.text.indexOf('Revenue grew because the Penang plant')).toBeLessThan(reply.text.indexOf('The Penang plant produced'));
  });

  it('brings no passage below the relevance floor: an unrelated question gets a plain answer without citations', async () => {
    const reply = await s.ask({ conversation_id: conversationId, message: 'Who won the football match on Saturday?' });
    expect(reply.text).not.toContain('The attached documents hold');
    expect(reply.text).not.toContain('::document');
  });

  it('never searches another user\'s documents, in their conversation or named in document_ids', async () => {
    const secret = await upload(s, null, 'secret.docx', docxFile(['The Penang plant will close in 2029.']), s.otherToken);
    // Named on the new-chat screen by someone else: passed over.
    const reply = await s.ask({ message: 'When will the Penang plant close?', document_ids: [secret.id] });
    expect(reply.text).not.toContain('close in 2029');
    expect(reply.text).not.toContain(secret.id);
    // Their own conversation with it, and mine asking the same: mine quotes only my report.
    await s.ask({ message: 'Penang plant closing', document_ids: [secret.id] }, s.otherToken);
    const mine = await s.ask({ conversation_id: conversationId, message: 'When will the Penang plant close?' });
    expect(mine.text).toContain('Penang plant');
    expect(mine.text).not.toContain('2029');
    expect(mine.text).not.toContain(secret.id);
  });
});

describe('retrieval with a model (the scripted OpenAI-compatible server) and embeddings', () => {
  let s: ChatServer;
  let model: FakeOpenAi;
  let embeddings: FakeEmbeddings;
  let conversationId: string;
  const systemPrompts = () => model.requests.filter((r) => !isTitleRequest(r)).map((r) => r.body.messages[0].content);

  beforeAll(async () => {
    model = await startFakeOpenAi();
    embeddings = await startFakeEmbeddings();
    s = await startChatServer({
      env: { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'fake-model', EMBEDDINGS_MODEL: 'fake-embed', EMBEDDINGS_BASE_URL: embeddings.baseUrl },
    });
    const first = await s.ask({ message: 'Hello' });
    conversationId = first.control.conversation_id;
  });
  afterAll(async () => {
    await s.close();
    await model.close();
    await embeddings.close();
  });

  it('puts the passages, named and placed, into the system prompt, at most 3 from one document and 6 in all', async () => {
    // Ten pages about turbines in one file, five in another, one in a third: all match the question.
    const turbines = await upload(s, conversationId, 'turbines.pdf', pdfFile(Array.from({ length: 10 }, (_, i) => `Turbine maintenance note ${i}: turbine blades inspected.`)));
    const windfarm = await upload(s, conversationId, 'windfarm.pdf', pdfFile(Array.from({ length: 5 }, (_, i) => `Wind farm log ${i}: turbine output normal.`)));
    const manual = await upload(s, conversationId, 'manual.docx', docxFile(['# Safety', 'Stop the turbine before climbing.']));
    const before = embeddings.embeddingRequests.length;
    const reply = await s.ask({ conversation_id: conversationId, message: 'turbine' });
    const system = systemPrompts().at(-1)!;
    expect(system).toContain(PASSAGES_INSTRUCTION);
    const passages = readPassages(system);
    expect(passages).toHaveLength(MAX_PASSAGES);
    expect(passages.map((p) => p.n)).toEqual([1, 2, 3, 4, 5, 6]);
    const perFile = (name: string) => passages.filter((p) => p.source.startsWith(`${name}, `)).length;
    // Ten pages match in turbines.pdf: three are taken, the others leave room for the other files.
    expect(perFile('turbines.pdf')).toBe(MAX_PER_DOCUMENT);
    expect(perFile('windfarm.pdf')).toBeLessThanOrEqual(MAX_PER_DOCUMENT);
    expect(perFile('windfarm.pdf') + perFile('manual.docx')).toBe(MAX_PASSAGES - MAX_PER_DOCUMENT);
    expect(system).toMatch(/^\[1\] (turbines|windfarm)\.pdf, page \d+:\n<passage>\n.*turbine.*\n<\/passage>$/im);
    // The question was embedded (vector ranking fused with full-text).
    expect(embeddings.embeddingRequests.slice(before).map((r) => r.input)).toEqual([['turbine']]);
    // The model's own text, then a document marker per cited source.
    expect(reply.text.startsWith('Hello from the fake model.\n\n::document{')).toBe(true);
    expect(reply.text.split('\n').filter((l) => l.startsWith('::document'))).toHaveLength(6);
    expect(reply.text).toContain(fileUrl(turbines.id));
    expect(reply.text).toContain(fileUrl(windfarm.id));
    expect(reply.text.includes(fileUrl(manual.id))).toBe(perFile('manual.docx') > 0);
  });

  it('ranks the passage holding the rare words of the question first', async () => {
    await upload(s, conversationId, 'policy.docx', docxFile(['# Remote work', 'Staff may work remotely two days a week with the consent of their supervisor.']));
    await s.ask({ conversation_id: conversationId, message: 'How many remote days per week does the supervisor allow?' });
    const [top] = readPassages(systemPrompts().at(-1)!);
    expect(top).toMatchObject({ n: 1, source: 'policy.docx, Remote work' });
    expect(top.text).toContain('two days a week');
  });

  it('tells the model the documents matched nothing, and cites nothing, for an unrelated question', async () => {
    const reply = await s.ask({ conversation_id: conversationId, message: 'Recommend a good pasta recipe' });
    const system = systemPrompts().at(-1)!;
    expect(readPassages(system)).toEqual([]);
    expect(system).toContain('No passage of them matched the question closely');
    expect(reply.text).toBe('Hello from the fake model.');
  });

  it('answers at once with full-text passages when the embeddings endpoint fails for the question', async () => {
    embeddings.failWith(503);
    try {
      const before = embeddings.embeddingRequests.length;
      await s.ask({ conversation_id: conversationId, message: 'supervisor consent' });
      // One try: a reply does not wait for back-offs (counted, not timed: a wall-clock bound failed on a busy machine).
      expect(embeddings.embeddingRequests.slice(before).filter((r) => r.input.some((t) => t.includes('supervisor consent')))).toHaveLength(1);
      expect(readPassages(systemPrompts().at(-1)!)[0]?.source).toBe('policy.docx, Remote work');
    } finally {
      embeddings.failWith(undefined);
    }
  });

  it('keeps the question plain text for a model not known to take images, though the conversation has one', async () => {
    await upload(s, conversationId, 'chart.png', PNG_BYTES);
    await s.ask({ conversation_id: conversationId, message: 'What does the chart show?' });
    const request = model.requests.filter((r) => !isTitleRequest(r)).at(-1)!;
    expect(request.body.messages.at(-1)).toEqual({ role: 'user', content: 'What does the chart show?' });
  });

  it('leaves a conversation without documents as it was: no passages, no embeddings call', async () => {
    const before = embeddings.embeddingRequests.length;
    const reply = await s.ask({ message: 'turbine' });
    expect(systemPrompts().at(-1)).not.toContain('<documents>');
    expect(reply.text).toBe('Hello from the fake model.');
    expect(embeddings.embeddingRequests.length).toBe(before);
  });
});

describe('images as model input', () => {
  let s: ChatServer;
  let model: FakeOpenAi;
  beforeAll(async () => {
    model = await startFakeOpenAi();
    // gpt-4o takes images (LLM_VISION=auto decides by the model's name).
    s = await startChatServer({ env: { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'openai/gpt-4o-mini' } });
  });
  afterAll(async () => {
    await s.close();
    await model.close();
  });

  it('sends the conversation\'s images with the question as data: URLs of their bytes, a new chat\'s attachments too', async () => {
    const image = await upload(s, null, 'diagram.png', PNG_BYTES);
    const first = await s.ask({ message: 'Describe the diagram', document_ids: [image.id] });
    const asked = model.requests.filter((r) => !isTitleRequest(r)).at(-1)!.body.messages.at(-1) as unknown as { role: string; content: unknown };
    const dataUrl = `data:image/png;base64,${PNG_BYTES.toString('base64')}`;
    expect(asked).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Describe the diagram' },
        { type: 'image_url', image_url: { url: dataUrl } },
      ],
    });
    // The reply cites no document for an image (nothing was retrieved from it).
    expect(first.text).toBe('Hello from the fake model.');
    // The next question in the conversation takes it along again; the history stays text.
    await s.ask({ conversation_id: first.control.conversation_id, message: 'And its colours?' });
    const next = model.requests.filter((r) => !isTitleRequest(r)).at(-1)!.body.messages;
    expect(next.at(-1)!.content).toEqual([{ type: 'text', text: 'And its colours?' }, { type: 'image_url', image_url: { url: dataUrl } }]);
    expect(next.slice(1, -1).every((m) => typeof m.content === 'string')).toBe(true);
  });

  it('counts an image part as a fixed number of tokens, never its bytes as text', () => {
    const huge = `data:image/png;base64,${'A'.repeat(2_000_000)}`;
    const tokens = countTurnTokens({ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: huge } }] });
    expect(tokens).toBeGreaterThanOrEqual(IMAGE_TOKENS);
    expect(tokens).toBeLessThan(IMAGE_TOKENS + 10);
  });
});
