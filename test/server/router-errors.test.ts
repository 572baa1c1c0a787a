import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../contract/envelope';
import { MAX_URL_LENGTH } from '../../server/http/router-errors';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One request written byte for byte on a fresh connection (fetch would refuse or repair most of these), read until
 * the server closes it. `Connection: close` is added so every answer ends the connection.
 */
function rawRequest(port: number, head: string, body = ''): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while we are still writing a huge request: what it answered is what counts.
    socket.on('error', (err) => (chunks.length ? undefined : reject(err)));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
    socket.write(`${head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n${body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`);
  });
}

/** The answer is the API's error envelope with this status, as JSON, never cached. */
function expectEnvelope(res: RawResponse, status: number, label: string) {
  expect(res.status, `${label}: ${res.body.slice(0, 300)}`).toBe(status);
  expect(res.headers['content-type'], label).toMatch(/^application\/json/);
  expect(res.headers['cache-control'], label).toBe('no-store');
  const body = errorEnvelope.parse(JSON.parse(res.body));
  expect(body.status).toBe('error');
  expect(body.detail, label).toMatch(/^[A-Z].+/);
  return body;
}

describe(`router-level errors over a real socket (${dbKind})`, () => {
  let t: TestApp;
  let port: number;
  const send = (head: string, body?: string) => rawRequest(port, head, body);

  beforeAll(async () => {
    const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'tanya-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), INDEX);
    await fs.writeFile(path.join(dist, 'assets', 'index-AbC123.js'), 'console.log(1)');
    t = await createTestApp({ env: { STATIC_DIR: dist } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(t.config.staticDir, { recursive: true, force: true });
  });

  it('answers a URL with broken percent-encoding with 400 in the envelope', async () => {
    for (const url of ['/api/v1/chat/conversations/%E0%A4%A', '/api/v1/health%', '/chat/%C3%28x']) {
      const body = expectEnvelope(await send(`GET ${url} HTTP/1.1`), 400, url);
      expect(body.detail).toMatch(/address \(URL\)/);
    }
  });

  it('answers a URL over the limit with 414, before and past what Node itself accepts', async () => {
    for (const length of [MAX_URL_LENGTH + 1, 20_000, 40_000]) {
      for (const prefix of ['/api/v1/chat/conversations?search=', '/chat?q=']) {
        const url = `${prefix}${'a'.repeat(length - prefix.length)}`;
        const body = expectEnvelope(await send(`GET ${url} HTTP/1.1`), 414, `${prefix} ${length}`);
        expect(body.detail).toBe('The address (URL) of the request is too long');
      }
    }
  });

  it('answers headers over the limit with 431', async () => {
    const body = expectEnvelope(await send(`GET /api/v1/health HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}`), 431, 'big header');
    expect(body.detail).toBe('The request headers are too large');
    const many = Array.from({ length: 400 }, (_, i) => `X-Header-${i}: ${'b'.repeat(60)}`).join('\r\n');
    expectEnvelope(await send(`GET /api/v1/health HTTP/1.1\r\n${many}`), 431, 'many headers');
  });

  it('answers a request Node cannot parse with 400', async () => {
    expectEnvelope(await send('GET /api/v1/health HTTP/1.1\r\nBad Header Name: x'), 400, 'bad header name');
  });

  it('answers a body that is not JSON on a JSON route with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await send(`POST /api/v1/auth/login HTTP/1.1\r\nContent-Type: ${type}`, 'email=user@demo.local&password=x');
      const body = expectEnvelope(res, 415, type);
      expect(body.detail).toBe('The request body must be JSON (Content-Type: application/json)');
    }
    expectEnvelope(await send('POST /api/v1/auth/login HTTP/1.1', '{"email":"user@demo.local"}'), 415, 'no content type');
  });

  it('answers malformed JSON with 400 and a body over the limit with 413', async () => {
    const json = 'POST /api/v1/auth/login HTTP/1.1\r\nContent-Type: application/json';
    expect(expectEnvelope(await send(json, '{"email": '), 400, 'malformed').detail).toBe('Malformed JSON body');
    // Announced, not sent: the answer comes before any of it is read, and unread bytes would reset the connection.
    const tooLarge = await send(`${json}\r\nContent-Length: ${2 * 1024 * 1024}`);
    expect(expectEnvelope(tooLarge, 413, 'too large').detail).toBe('Request body is too large');
  });

  it('answers unknown /api paths in any letter case with a JSON 404, never the SPA', async () => {
    for (const url of ['/API/v1/nope', '/Api/x', '/api', '/api/', '/api?x=1', '/aPi/v1/health', '/%61pi/v1/nope']) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const body = expectEnvelope(await send(`${method} ${url} HTTP/1.1`), 404, `${method} ${url}`);
        expect(body.detail).toBe('Not found');
      }
    }
    // The SPA's own routes still get the SPA.
    const spa = await send('GET /chat HTTP/1.1');
    expect(spa.status).toBe(200);
    expect(spa.body).toBe(INDEX);
  });

  it('marks every API answer no-store, while static files keep their own caching', async () => {
    for (const [head, status] of [
      ['GET /api/v1/health HTTP/1.1', 200],
      ['GET /api/v1/users/me HTTP/1.1', 401],
      ['GET /api/v1/chat/conversations?page=0 HTTP/1.1\r\nAuthorization: Bearer nope', 401],
      ['PUT /api/v1/health HTTP/1.1', 404],
      ['POST /api/v1/auth/login HTTP/1.1\r\nContent-Type: application/json', 400],
      ['GET /api/docs/json HTTP/1.1', 200],
    ] as const) {
      const res = await send(head, head.includes('Content-Type') ? '{}' : '');
      expect(res.status, head).toBe(status);
      expect(res.headers['cache-control'], head).toBe('no-store');
    }
    expect((await send('GET /assets/index-AbC123.js HTTP/1.1')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await send('GET / HTTP/1.1')).headers['cache-control']).toBe('no-cache');
  });

  it('routes an absolute-form request line (`GET http://host/path`) on its path, exactly like the origin form', async () => {
    const hosts = ['http://127.0.0.1', 'http://tanya.example:8080', 'HTTPS://Other.Host'];
    for (const host of hosts) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const body = expectEnvelope(await send(`${method} ${host}/api/v1/nope HTTP/1.1`), 404, `${method} ${host}/api/v1/nope`);
        expect(body.detail).toBe('Not found');
      }
      expectEnvelope(await send(`GET ${host}/API/v1/nope?x=1 HTTP/1.1`), 404, `${host} /API`);

      const health = await send(`GET ${host}/api/v1/health HTTP/1.1`);
      const originHealth = await send('GET /api/v1/health HTTP/1.1');
      expect(health.status, host).toBe(200);
      expect(JSON.parse(health.body)).toEqual(JSON.parse(originHealth.body));
      expect(health.headers['cache-control'], host).toBe('no-store');
      const me = await send(`GET ${host}/api/v1/users/me HTTP/1.1`);
      expect(me.status).toBe(401);
      expect(me.headers['cache-control']).toBe('no-store');

      for (const path of ['/chat', '/', '']) {
        const spa = await send(`GET ${host}${path} HTTP/1.1`);
        expect(spa.status, `${host}${path}`).toBe(200);
        expect(spa.body).toBe(INDEX);
        expect(spa.headers['cache-control']).toBe('no-cache');
      }
      const asset = await send(`GET ${host}/assets/index-AbC123.js HTTP/1.1`);
      expect(asset.status).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const missing = await send(`GET ${host}/assets/gone.js HTTP/1.1`);
      expect(missing.status).toBe(404);
    }
  });
});
