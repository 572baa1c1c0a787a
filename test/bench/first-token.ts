import http, { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { freshDatabase } from './bench-database';
import { ratioOf, reportGoal } from './goal-line';
import { measureHttpFloor, measureRelayFloor, startChild, timedPosts } from './http-floor';
import { benchSignIn, NO_BACKUP_MODEL_ENV, startServer } from './server-process';
import { median } from './median';

// Time to first token that the server adds on top of the model's own: a scripted OpenAI-compatible model
// (first chunk after a fixed delay, then a steady stream) behind a real server process, asked over the real
// API. Both clocks are this process's performance.now(): the client's and the model's timestamps compare.

/**
 * The goal for the server's part (ms, median) on top of what a bare relay adds, measured in the same run (issue 29:
 * a fixed number held on one machine and not the next; the model call through the openai SDK is inside it).
 * On this kind of machine (2 shared cores) the SDK alone takes about all of it: a bare relay asking the model through
 * the SDK (sdk-relay.ts) added 3.7–5.2 ms against the node:http relay's 1.7–2.1 ms (1.9–3.3 ms for the SDK and
 * undici's fetch: a few turns of the event loop before the request leaves, and its stream parsing), and the server
 * 0.6–4.9 ms over that SDK relay as the load varied (follow-ups 6.6 ms against a goal of 4.9 ms in a quiet run,
 * 9.3 ms against 5.1 ms in a busy one; 2026-11-28, with 4 other agents on the 2 cores). The goal is kept, and
 * missed, rather than the SDK dropped: the SDK relay's figure is printed beside the goal's.
 */
export const ADDED_GOAL_MS = 3;
/** The model's own time to first token (ms). */
export const MODEL_FIRST_TOKEN_MS = 200;
const REPLY_TOKENS = 50;
const TOKEN_INTERVAL_MS = 5;
/** Measured sends per series, after WARMUP unmeasured ones. */
export const SENDS = 20;
// A server in service has answered thousands of sends; the first few dozen run in V8's unoptimised tiers
// (measured here: 2 warm-up sends gave about 1 ms more than 100). 30 reach the steady state.
const WARMUP = 30;
/** Quiet between sends (the background work of the last reply is done by then), as in the HTTP floor. */
const PAUSE_MS = 30;
const EMAIL = 'user@demo.local';

// ------------------------------------------------------------------------------------------ scripted model

interface ModelCall {
  /** The request arrived (headers parsed). */
  receivedAt: number;
  /** The response's first byte (headers, role chunk and first token, written together) went out. */
  firstByteAt: number;
}

function isTitleRequest(body: { messages?: Array<{ content?: unknown }> }) {
  const first = body.messages?.[0]?.content;
  return typeof first === 'string' && /You name chat conversations/.test(first);
}

/**
 * An OpenAI-compatible /v1/chat/completions on 127.0.0.1 that streams: nothing for `firstTokenMs`, then the
 * role chunk and the first token at once, then a token every `tokenIntervalMs`, finish, usage, [DONE].
 * Title requests (services/titles.ts) are answered at once, so they never hold up the next measurement.
 */
export async function startScriptedModel(firstTokenMs: number, tokenIntervalMs = TOKEN_INTERVAL_MS) {
  const replies: ModelCall[] = [];
  let titles = 0;
  let counter = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const receivedAt = performance.now();
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { model: string; messages?: Array<{ content?: unknown }> };
      const id = `chatcmpl-bench-${++counter}`;
      const frame = (choices: unknown[], extra: object = {}) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices, ...extra })}\n\n`;
      const delta = (content: string) => frame([{ index: 0, delta: { content }, finish_reason: null }]);
      const finish = (tokens: number) =>
        frame([{ index: 0, delta: {}, finish_reason: 'stop' }]) +
        frame([], { usage: { prompt_tokens: 100, completion_tokens: tokens, total_tokens: 100 + tokens } }) +
        'data: [DONE]\n\n';
      const head = () => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const roleChunk = frame([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);

      if (isTitleRequest(body)) {
        head();
        res.end(roleChunk + delta('Bench conversation') + finish(2), () => titles++);
        return;
      }
      setTimeout(async () => {
        if (res.destroyed) return;
        head();
        const call: ModelCall = { receivedAt, firstByteAt: performance.now() };
        res.write(roleChunk + delta('Token0'));
        replies.push(call);
        for (let i = 1; i < REPLY_TOKENS; i++) {
          await new Promise((r) => setTimeout(r, tokenIntervalMs));
          if (res.destroyed) return;
          res.write(delta(` token${i}`));
        }
        res.end(finish(REPLY_TOKENS));
      }, firstTokenMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    replies,
    titles: () => titles,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ------------------------------------------------------------------------------------------------ client

interface SendResult {
  conversationId: string;
  messageId: string;
  /** From just before the request to the first text delta read off the stream. */
  firstDeltaAt: number;
  sentAt: number;
}

/**
 * A plain node:http client with a kept-alive connection: fetch (undici) spends about a millisecond of its own
 * before a request leaves and after a chunk arrives, which is the client's time, not the server's.
 */
const clientAgent = new http.Agent({ keepAlive: true });

/** POST /chat/messages and read the stream to `event: done`, noting when the first text delta arrived. */
function send(baseUrl: string, token: string, conversationId: string | null, message: string): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    const sentAt = performance.now();
    let buffer = '';
    let control: { conversation_id: string; message_id: string } | undefined;
    let firstDeltaAt: number | undefined;
    let done = false;
    const req = http.request(
      `${baseUrl}/api/v1/chat/messages`,
      {
        method: 'POST',
        agent: clientAgent,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      },
      (res) => {
        res.setEncoding('utf8');
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (c: string) => (body += c));
          res.on('end', () => reject(new Error(`POST /chat/messages answered ${res.statusCode}: ${body}`)));
          return;
        }
        res.on('data', (chunk: string) => {
          const now = performance.now();
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            const data: string[] = [];
            for (const line of frame.split('\n')) {
              if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
            }
            if (data.length === 0) continue;
            const value: unknown = JSON.parse(data.join('\n'));
            if (event === 'error') reject(new Error(`the stream reported an error: ${JSON.stringify(value)}`));
            if (event === 'done') done = true;
            else if (!control) control = value as { conversation_id: string; message_id: string };
            else if (typeof value === 'string' && value.length > 0) firstDeltaAt ??= now;
          }
        });
        res.on('end', () => {
          if (!control || firstDeltaAt === undefined || !done) reject(new Error('the stream ended without a control record, a text delta and done'));
          else resolve({ conversationId: control.conversation_id, messageId: control.message_id, firstDeltaAt, sentAt });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ conversation_id: conversationId, message }));
  });
}

// --------------------------------------------------------------------------------------------------- bench

export interface FirstTokenSample {
  /** Client time to first delta minus the model's own receive-to-first-byte: what the server added. */
  addedMs: number;
  /** Client send -> request at the model (auth, database, prompt, SDK, connection). */
  beforeModelMs: number;
  /** Model's first byte -> first delta at the client (SDK stream parsing, hub, SSE). */
  afterModelMs: number;
  clientMs: number;
  modelMs: number;
  /** Where the server's part went, step by step (ms), from the server's own timings (see SendTimings). */
  steps: Record<StepName, number>;
}

/** The server's timings of one send (services/chat-stream.ts SendTimings), as logged at debug level. */
type ServerTimings = Record<'received' | 'start' | 'rateLimit' | 'entitlements' | 'plan' | 'context' | 'systemPrompt' | 'tokens' | 'modelCalled' | 'exchange' | 'firstChunk', number>;

/** The steps of a send, in order, with what each covers (`saving` overlaps the model's own time, the rest add up). */
const STEPS = {
  arrival: 'the request on its way until the server takes it up (connection, HTTP parsing)',
  request: 'headers, sign-in check, body read and validated',
  rateLimit: 'rate limit',
  entitlements: 'entitlements',
  plan: 'reading the conversation (lease, edited message) and the history',
  context: "the reply's context: documents' passages, web pages (none here)",
  systemPrompt: 'system prompt',
  tokens: 'counting history tokens',
  toModel: 'model client until the request arrives',
  saving: '(lease and saving the question, while the model works: not on the path)',
  fromModel: "model's first byte until its first chunk is read",
  toClient: 'that chunk until the client reads it',
} as const;
type StepName = keyof typeof STEPS;

/** performance.now() of this process as ms since the epoch, like the server's timings. */
const epoch = (t: number) => performance.timeOrigin + t;

function stepsOf(t: ServerTimings, result: SendResult, call: ModelCall): Record<StepName, number> {
  return {
    arrival: t.received - epoch(result.sentAt),
    request: t.start - t.received,
    rateLimit: t.rateLimit - t.start,
    entitlements: t.entitlements - t.rateLimit,
    plan: t.plan - t.entitlements,
    context: t.context - t.plan,
    systemPrompt: t.systemPrompt - t.context,
    tokens: t.tokens - t.systemPrompt,
    toModel: epoch(call.receivedAt) - t.tokens,
    saving: t.exchange - t.modelCalled,
    fromModel: t.firstChunk - epoch(call.firstByteAt),
    toClient: epoch(result.firstDeltaAt) - t.firstChunk,
  };
}

export interface FirstTokenSeries {
  label: string;
  samples: FirstTokenSample[];
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

/**
 * The bare relay again, but asking the model through the OpenAI SDK as the server builds it (sdk-relay.ts, in a
 * process of its own) against the scripted model: what the SDK alone adds on this path, beside the node:http relay.
 */
export async function measureSdkRelayFloor(pauseMs: number, modelMs: number, samples = 30): Promise<number> {
  const model = await startScriptedModel(modelMs);
  const relay = await startChild(['--import', 'tsx', 'test/bench/sdk-relay.ts', model.baseUrl]);
  try {
    const posts = await timedPosts(relay.port, pauseMs, samples);
    // The model heard every POST in turn, the 2 uncounted ones first.
    const own = model.replies.slice(2).map((c) => c.firstByteAt - c.receivedAt);
    if (own.length !== posts.length) throw new Error(`the SDK relay made ${model.replies.length} model calls for ${posts.length + 2} posts`);
    return median(posts.map((t, i) => t.firstAt - t.sentAt - own[i]!));
  } finally {
    relay.stop();
    await model.close();
  }
}

export async function measureFirstToken() {
  const model = await startScriptedModel(MODEL_FIRST_TOKEN_MS);
  const database = await freshDatabase(process.env.DATABASE_URL);
  const timings = new Map<string, ServerTimings>();
  const onStdout = (line: string) => {
    if (!line.includes('"reply timings"')) return;
    const entry = JSON.parse(line) as { messageId: string; timings: ServerTimings };
    timings.set(entry.messageId, entry.timings);
  };
  try {
    const server = await startServer(0, {
      ...database.env,
      // The server's timings of each send are logged at debug level (and read from its output here).
      LOG_LEVEL: 'debug',
      LLM_BASE_URL: model.baseUrl,
      LLM_API_KEY: 'test',
      LLM_MODEL: 'bench-model',
      // Whatever the shell has set: no backup model, no token cap.
      ...NO_BACKUP_MODEL_ENV,
      LLM_MAX_TOKENS: '',
    }, { onStdout });
    try {
      const token = await benchSignIn(server.url, EMAIL);

      const measureOne = async (conversationId: string | null, i: number): Promise<{ sample: FirstTokenSample; conversationId: string }> => {
        const before = model.replies.length;
        const titlesBefore = model.titles();
        const result = await send(server.url, token, conversationId, `Bench question ${i}: what does the quarterly budget review need from my team?`);
        if (model.replies.length !== before + 1) throw new Error(`expected one model call per send, saw ${model.replies.length - before}`);
        const call = model.replies[before];
        // A new conversation's first exchange asks the model for a title in the background: let it finish first.
        if (conversationId === null) await waitFor(() => model.titles() > titlesBefore, 5_000);
        await new Promise((r) => setTimeout(r, PAUSE_MS));
        const clientMs = result.firstDeltaAt - result.sentAt;
        const modelMs = call.firstByteAt - call.receivedAt;
        const serverTimings = timings.get(result.messageId);
        if (!serverTimings) throw new Error(`no timings were logged for message ${result.messageId}`);
        return {
          conversationId: result.conversationId,
          sample: {
            addedMs: clientMs - modelMs,
            beforeModelMs: call.receivedAt - result.sentAt,
            afterModelMs: result.firstDeltaAt - call.firstByteAt,
            clientMs,
            modelMs,
            steps: stepsOf(serverTimings, result, call),
          },
        };
      };

      // Series 1: every send starts a new conversation (the first question of a chat).
      const fresh: FirstTokenSample[] = [];
      for (let i = 0; i < WARMUP + SENDS; i++) {
        const { sample } = await measureOne(null, i);
        if (i >= WARMUP) fresh.push(sample);
      }
      // Series 2: follow-ups in one conversation (history read and counted, the lease taken), each after `done`.
      const followUps: FirstTokenSample[] = [];
      let conversationId = (await measureOne(null, 100)).conversationId;
      for (let i = 0; i < SENDS; i++) {
        const measured = await measureOne(conversationId, 101 + i);
        conversationId = measured.conversationId;
        followUps.push(measured.sample);
      }
      return {
        floorMs: await measureHttpFloor(PAUSE_MS),
        relayFloorMs: await measureRelayFloor(PAUSE_MS, MODEL_FIRST_TOKEN_MS),
        sdkRelayMs: await measureSdkRelayFloor(PAUSE_MS, MODEL_FIRST_TOKEN_MS),
        series: [
          { label: 'new conversation each time', samples: fresh },
          { label: 'follow-ups in one conversation', samples: followUps },
        ] satisfies FirstTokenSeries[],
      };
    } finally {
      await server.stop();
    }
  } finally {
    clientAgent.destroy();
    await model.close();
    await database.drop();
  }
}

/** Nearest rank: p95 of 20 samples is the 19th smallest. */
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};

/** Prints the section of `npm run bench`. */
export function printFirstToken({ series, floorMs, relayFloorMs, sdkRelayMs }: Awaited<ReturnType<typeof measureFirstToken>>) {
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  console.log(
    `\nTime to first token added by the server (scripted model: first token after ${MODEL_FIRST_TOKEN_MS} ms, then ${REPLY_TOKENS} tokens; ` +
      `${SENDS} sends per series after ${WARMUP} warm-up; added = client time to first delta − the model's own receive-to-first-byte):`,
  );
  console.log(
    `  this machine's floor: a bare node:http POST and its answer between two processes, after the same ${PAUSE_MS} ms of quiet, takes ` +
      `${ms(floorMs)} (median); the path below crosses between processes four times`,
  );
  console.log(
    `  the same path with a bare node:http relay in place of the server (the first chunk passed on, nothing else done) adds ${ms(relayFloorMs)} (median): ` +
      'what any server would add here (the reference of the goal)',
  );
  console.log(
    `  a bare relay asking the model through the OpenAI SDK as the server does (sdk-relay.ts) adds ${ms(sdkRelayMs)}: the SDK's own part here is ` +
      `${ms(sdkRelayMs - relayFloorMs)} of the ${ms(ADDED_GOAL_MS)} the goal allows on top of the bare relay`,
  );
  const goal = relayFloorMs + ADDED_GOAL_MS;
  for (const s of series) {
    const added = median(s.samples.map((x) => x.addedMs));
    console.log(
      `  ${s.label}: server-added time to first token median ${ms(added)}, p95 ${ms(quantile(s.samples.map((x) => x.addedMs), 0.95))}; ` +
        `${ms(added - sdkRelayMs)} more than the SDK relay's: what the server's own work adds`,
    );
    reportGoal({
      what: `server-added time to first token, ${s.label}`,
      measured: ms(added),
      reference: `bare relay ${ms(relayFloorMs)} (+ ${ms(ADDED_GOAL_MS)} = ${ms(goal)}; SDK relay ${ms(sdkRelayMs)})`,
      ratio: ratioOf(added, relayFloorMs),
      goal: `<= relay + ${ms(ADDED_GOAL_MS)}`,
      pass: added <= goal,
    });
    const col = (pick: (x: FirstTokenSample) => number) => `${ms(median(s.samples.map(pick)))} / ${ms(quantile(s.samples.map(pick), 0.95))}`;
    console.log(
      `    before the model ${col((x) => x.beforeModelMs)}, after its first byte ${col((x) => x.afterModelMs)}, client TTFT ${col((x) => x.clientMs)} (median / p95); where it went (median):`,
    );
    for (const [step, label] of Object.entries(STEPS) as [StepName, string][]) {
      console.log(`      ${ms(median(s.samples.map((x) => x.steps[step]))).padStart(9)}  ${label}`);
    }
  }
}

// `npx tsx test/bench/first-token.ts` runs this section alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printFirstToken(await measureFirstToken());
}
