import { afterAll, beforeAll, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../../src/api/client';

// A real HTTP server reading what an upload sends: the client must leave a FormData body to fetch (multipart with
// its boundary), never JSON-encode it or label it application/json.
let server: http.Server;
let base = '';
let received: { contentType: string; body: string } | null = null;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received = { contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString('utf8') };
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'success', data: { id: 'd1' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

it('sends a FormData body as multipart/form-data with its boundary', async () => {
  const client = createApiClient({ baseURL: base, getToken: () => 'tok', refresh: async () => false });
  const form = new FormData();
  form.append('file', new File(['Quarterly figures'], 'report.txt', { type: 'text/plain' }), 'report.txt');
  const answer = await client.post<{ id: string }>('/documents/', form, { concurrent: true });
  expect(answer.data).toEqual({ id: 'd1' });
  expect(received!.contentType).toMatch(/^multipart\/form-data; boundary=/);
  expect(received!.body).toContain('filename="report.txt"');
  expect(received!.body).toContain('Quarterly figures');
});

it('still sends a plain object as JSON', async () => {
  const client = createApiClient({ baseURL: base, getToken: () => 'tok', refresh: async () => false });
  await client.post('/documents/', { a: 1 });
  expect(received).toEqual({ contentType: 'application/json', body: '{"a":1}' });
});
