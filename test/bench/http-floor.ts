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

/** Median round trip (ms) of a small keep-alive POST to a bare Node server, each after `pauseMs` of quiet. */
export async function measureHttpFloor(pauseMs: number, samples = 30): Promise<number> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.once('error', reject);
    });
    const agent = new http.Agent({ keepAlive: true });
    const times: number[] = [];
    for (let i = 0; i < samples + 2; i++) {
      await sleep(pauseMs);
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end('{"message":"hello"}');
      });
      if (i >= 2) times.push(performance.now() - started);
    }
    agent.destroy();
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  } finally {
    child.kill();
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
  let call: { receivedAt: number; firstByteAt: number } | undefined;
  const model = http.createServer((req, res) => {
    const receivedAt = performance.now();
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        call = { receivedAt, firstByteAt: performance.now() };
        res.write('data: "Token0"\n\n');
        setTimeout(() => res.end('data: [DONE]\n\n'), 5);
      }, modelMs),
    );
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  const child = spawn(process.execPath, ['-e', RELAY, String((model.address() as AddressInfo).port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const agent = new http.Agent({ keepAlive: true });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.once('error', reject);
    });
    const added: number[] = [];
    for (let i = 0; i < samples + 2; i++) {
      await sleep(pauseMs);
      const sentAt = performance.now();
      const firstAt = await new Promise<number>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          let first: number | undefined;
          res.on('data', () => (first ??= performance.now()));
          res.on('end', () => resolve(first!));
        });
        req.on('error', reject);
        req.end('{"message":"hello"}');
      });
      if (i >= 2 && call) added.push(firstAt - sentAt - (call.firstByteAt - call.receivedAt));
    }
    return median(added);
  } finally {
    agent.destroy();
    child.kill();
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
  }
}
