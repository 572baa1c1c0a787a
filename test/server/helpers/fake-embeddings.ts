import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible server for POST /v1/embeddings and POST /v1/audio/transcriptions. No npm package ships
 * an embedding model, so this one is a test double: it hashes each word of a text into one of DIMENSIONS buckets
 * (FNV-1a) and returns the counts as the vector. Texts sharing words point the same way, which is all retrieval's
 * ranking needs to be tested; it is not a model of meaning.
 */
export const DIMENSIONS = 64;

export function hashVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193) >>> 0;
    vector[h % DIMENSIONS] += 1;
  }
  return vector;
}

export interface FakeEmbeddings {
  /** For EMBEDDINGS_BASE_URL / TRANSCRIPTION_BASE_URL. */
  baseUrl: string;
  /** Every embeddings request's inputs and authorization header, in order (refused ones too). */
  embeddingRequests: { input: string[]; model: string; authorization: string | undefined; at: number }[];
  transcriptionRequests: { model: string; filename: string; bytes: number; authorization: string | undefined }[];
  /** The next embeddings requests answer 429 with this Retry-After (seconds), one per entry. */
  refuseNext(retryAfterSeconds: string[]): void;
  /** Every embeddings request answers this status from now on (undefined: answer normally). */
  failWith(status: number | undefined): void;
  /**
   * Embeddings requests any of whose inputs contains `text` get no answer (the connection is left open), as a model
   * that hangs; each is recorded in `held`. undefined: answer them again.
   */
  holdWhenInputHas(text: string | undefined): void;
  held: { input: string[]; authorization: string | undefined }[];
  /** What POST /audio/transcriptions answers as the text. */
  transcript: string;
  close(): Promise<void>;
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const refusals: string[] = [];
  let failing: number | undefined;
  let holding: string | undefined;
  const fake: Omit<FakeEmbeddings, 'baseUrl' | 'close'> = {
    holdWhenInputHas: (text) => {
      holding = text;
    },
    held: [],
    embeddingRequests: [],
    transcriptionRequests: [],
    refuseNext: (seconds) => refusals.push(...seconds),
    failWith: (status) => {
      failing = status;
    },
    transcript: '',
  };
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      if (req.method === 'POST' && req.url === '/v1/embeddings') {
        const parsed = JSON.parse(body.toString('utf8')) as { input: string[] | string; model: string };
        const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
        if (holding !== undefined && input.some((text) => text.includes(holding!))) {
          fake.held.push({ input, authorization: req.headers.authorization });
          return;
        }
        fake.embeddingRequests.push({ input, model: parsed.model, authorization: req.headers.authorization, at: Date.now() });
        const refusal = refusals.shift();
        if (refusal !== undefined || failing !== undefined) {
          res.writeHead(refusal !== undefined ? 429 : failing!, {
            'content-type': 'application/json',
            ...(refusal !== undefined ? { 'retry-after': refusal } : {}),
          });
          res.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            model: parsed.model,
            data: input.map((text, index) => ({ object: 'embedding', index, embedding: hashVector(text) })),
            usage: { prompt_tokens: 0, total_tokens: 0 },
          }),
        );
        return;
      }
      if (req.method === 'POST' && req.url === '/v1/audio/transcriptions') {
        // Multipart: the model field's value and the file part's name and size are what the test looks at.
        const text = body.toString('latin1');
        const model = /name="model"\r\n\r\n([^\r]*)/.exec(text)?.[1] ?? '';
        const filename = /name="file"; filename="([^"]*)"/.exec(text)?.[1] ?? '';
        fake.transcriptionRequests.push({ model, filename, bytes: body.length, authorization: req.headers.authorization });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ text: fake.transcript }));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // The same object the server reads (`transcript` set by a test is what the next request gets).
  return Object.assign(fake, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
