import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startScriptedModel } from './first-token';

// The load side of the burst bench (burst.ts), in a process of its own: the 300 streams it opens and reads (and
// the scripted model it may serve) keep this process busy, and none of that may delay the health probes, which
// burst.ts times in its own, otherwise idle, process. Driven over the IPC channel of fork().

export type SenderCommand =
  | { type: 'model'; firstTokenMs: number; tokenIntervalMs: number }
  | { type: 'fire'; url: string; tokens: string[]; sends: number; tag: string };

export type SenderReport =
  | { type: 'model'; baseUrl: string }
  | { type: 'fired' }
  | { type: 'done'; result: BurstSendResult };

export interface BurstSendResult {
  /** ms from firing to each stream's first record (the send accepted), and to its end. */
  firstRecordMs: number[];
  doneMs: number[];
  failures: string[];
  /** This process's own event-loop delay during the burst (p99, max, ms): how busy the load side was. */
  loopP99Ms: number;
  loopMaxMs: number;
  /** Title requests the scripted model answered (0 with the offline responder). */
  titles: number;
}

const send = process.send?.bind(process);
if (!send) throw new Error('burst-sender.ts runs as a child of burst.ts (fork)');
const report = (r: SenderReport) => send(r);

let model: Awaited<ReturnType<typeof startScriptedModel>> | undefined;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** One send: the body read as it comes, only to note the first record and to check the end for `event: done`. */
function post(url: URL, token: string, message: string, firedAt: number, result: BurstSendResult): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        let tail = '';
        let first = true;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (first) {
            result.firstRecordMs.push(performance.now() - firedAt);
            first = false;
          }
          tail = (tail + chunk).slice(-400);
        });
        res.on('end', () => {
          result.doneMs.push(performance.now() - firedAt);
          if (res.statusCode !== 200) result.failures.push(`HTTP ${res.statusCode}`);
          else if (tail.includes('event: error')) result.failures.push('a stream reported an error');
          else if (!tail.includes('event: done')) result.failures.push('a stream ended without done');
          resolve();
        });
        res.on('error', (err) => {
          result.failures.push(String(err));
          resolve();
        });
      },
    );
    req.on('error', (err) => {
      result.failures.push(String(err));
      resolve();
    });
    req.end(JSON.stringify({ conversation_id: null, message }));
  });
}

process.on('message', (command: SenderCommand) => {
  void (async () => {
    if (command.type === 'model') {
      model = await startScriptedModel(command.firstTokenMs, command.tokenIntervalMs);
      report({ type: 'model', baseUrl: model.baseUrl });
      return;
    }
    const url = new URL(`${command.url}/api/v1/chat/messages`);
    const result: BurstSendResult = { firstRecordMs: [], doneMs: [], failures: [], loopP99Ms: 0, loopMaxMs: 0, titles: 0 };
    const titlesBefore = model?.titles() ?? 0;
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const firedAt = performance.now();
    // All requests are written in this one turn of the loop: the server gets them as one burst.
    const all = Array.from({ length: command.sends }, (_, i) =>
      post(url, command.tokens[i % command.tokens.length]!, `${command.tag} question ${i}: summarise the quarterly budget review for my team.`, firedAt, result),
    );
    report({ type: 'fired' });
    await Promise.all(all);
    loop.disable();
    result.loopP99Ms = loop.percentile(99) / 1e6;
    result.loopMaxMs = loop.max / 1e6;
    // Titles are asked for after each reply: give the last ones a moment to arrive.
    if (model) {
      const deadline = performance.now() + 10_000;
      while (model.titles() - titlesBefore < command.sends && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      result.titles = model.titles() - titlesBefore;
    }
    report({ type: 'done', result });
  })();
});

process.on('disconnect', () => {
  agent.destroy();
  void model?.close().finally(() => process.exit(0));
  if (!model) process.exit(0);
});
