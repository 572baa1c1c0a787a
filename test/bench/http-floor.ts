import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { median } from './median';

// What the machine itself costs: a POST answered at once by a bare node:http server in another process, sent
// after the same idle pause as the first-token sends. On a shared 2-core VM most of it is the idle processes
// being woken up, and the first-token path crosses between processes four times (client, server, model, server,
// client), so this floor is part of every "server-added" figure measured here, whatever the server does.

const SERVER = `
const http = require('node:http');
const s = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')); });
s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
`;

/** A Node program (its source) run in another process; resolves with the port it prints once listening. */
function startProcess(source: string, ...args: string[]) {
  return startChild(['-e', source, ...args]);
}

/** `node <args>` in another process (a TypeScript file with ['--import', 'tsx', file]); resolves with the port it prints. */
export async function startChild(args: string[]) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('error', reject);
  });
  return { port, stop: () => child.kill() };
}

/**
 * `samples` small keep-alive POSTs to 127.0.0.1:`port`, each after `pauseMs` of quiet (2 more before them, not
 * counted): when each was sent, when its first byte of body came back, and when its answer ended.
 */
export async function timedPosts(port: number, pauseMs: number, samples: number) {
  const agent = new http.Agent({ keepAlive: true });
  const times: Array<{ sentAt: number; firstAt: number; endAt: number }> = [];
  try {
    for (let i = 0; i < samples + 2; i++) {
      await sleep(pauseMs);
      const sentAt = performance.now();
      const timing = await new Promise<{ sentAt: number; firstAt: number; endAt: number }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          let firstAt: number | undefined;
          res.on('data', () => (firstAt ??= performance.now()));
          res.on('end', () => {
            const endAt = performance.now();
            resolve({ sentAt, firstAt: firstAt ?? endAt, endAt });
          });
        });
        req.on('error', reject);
        req.end('{"message":"hello"}');
      });
      if (i >= 2) times.push(timing);
    }
    return times;
  } finally {
    agent.destroy();
  }
}

/** Median round trip (ms) of a small keep-alive POST to a bare Node server, each after `pauseMs` of quiet. */
export async function measureHttpFloor(pauseMs: number, samples = 30): Promise<number> {
  const server = await startProcess(SERVER);
  try {
    return median((await timedPosts(server.port, pauseMs, samples)).map((t) => t.endAt - t.sentAt));
  } finally {
    server.stop();
  }
}

const RELAY = `
const http = require('node:http');
const modelPort = Number(process.argv[1]);
const agent = new http.Agent({ keepAlive: true });
const s = http.createServer((req, res) => {
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    const body = Buffer.concat(parts);
    const up = http.request({ host: '127.0.0.1', port: modelPort, method: 'POST', path: '/', agent,
      headers: { 'content-type': 'application/json', 'content-length': body.length } }, (answer) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      answer.on('data', (c) => res.write(c));
      answer.on('end', () => res.end());
    });
    up.end(body);
  });
});
s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
`;

/**
 * What the first-token path costs with no server in it: a bare node:http relay in another process takes the
 * client's POST, asks a model in this process (first byte after `modelMs`), and passes the first chunk back.
 * Median of (client's time to first chunk − the model's own receive-to-first-byte), as the first-token bench
 * computes it: the same four crossings, each after the same idle wait, and nothing else.
 */
export async function measureRelayFloor(pauseMs: number, modelMs: number, samples = 30): Promise<number> {
  const modelCalls: Array<{ receivedAt: number; firstByteAt: number }> = [];
  const model = http.createServer((req, res) => {
    const receivedAt = performance.now();
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        modelCalls.push({ receivedAt, firstByteAt: performance.now() });
        res.write('data: "Token0"\n\n');
        setTimeout(() => res.end('data: [DONE]\n\n'), 5);
      }, modelMs),
    );
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  const relay = await startProcess(RELAY, String((model.address() as AddressInfo).port));
  try {
    const posts = await timedPosts(relay.port, pauseMs, samples);
    // The model heard every POST in turn, the 2 uncounted ones first.
    const own = modelCalls.slice(2).map((c) => c.firstByteAt - c.receivedAt);
    return median(posts.map((t, i) => t.firstAt - t.sentAt - own[i]!));
  } finally {
    relay.stop();
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
  }
}
