import { spawn } from 'node:child_process';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

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
