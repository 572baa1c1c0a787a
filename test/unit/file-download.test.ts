import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '../../src/api/api-error';
import { createApiClient } from '../../src/api/client';
import { fileNameFrom } from '../../src/lib/file-download';

describe('fileNameFrom (report exports)', () => {
  it('takes the quoted, bare or RFC 5987 name of content-disposition', () => {
    expect(fileNameFrom('attachment; filename="department-report-2026-01-03.csv"', 'x.csv')).toBe('department-report-2026-01-03.csv');
    expect(fileNameFrom('attachment; filename=user-report-2026.csv', 'x.csv')).toBe('user-report-2026.csv');
    expect(fileNameFrom("attachment; filename*=UTF-8''r%C3%A9port.csv; filename=\"report.csv\"", 'x.csv')).toBe('réport.csv');
  });

  it('falls back when the header is missing or names nothing, and never keeps a path', () => {
    expect(fileNameFrom(null, 'department-report.csv')).toBe('department-report.csv');
    expect(fileNameFrom('attachment', 'user-report.csv')).toBe('user-report.csv');
    expect(fileNameFrom('attachment; filename=""', 'user-report.csv')).toBe('user-report.csv');
    expect(fileNameFrom('attachment; filename="../../etc/passwd"', 'user-report.csv')).toBe('passwd');
  });
});

describe('api.download (the raw response of a file, with the session refresh)', () => {
  let server: http.Server;
  let base = '';
  const validToken = 'fresh';
  const accepted: Array<string | undefined> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      accepted.push(req.headers.accept);
      if (req.headers.authorization !== `Bearer ${validToken}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'error', detail: 'Session expired', message: 'Session expired' }));
        return;
      }
      if (req.url?.startsWith('/api/v1/refused')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'error', detail: 'year must be a whole number from 2000 to 2100' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="user-report-2026.csv"' });
      res.end('User,Email\nNur User,user@demo.local\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('resolves with the unread response after refreshing an expired token once', async () => {
    let token = 'stale';
    let refreshes = 0;
    const client = createApiClient({
      baseURL: base,
      getToken: () => token,
      retryDelayMs: 5,
      refresh: async () => {
        refreshes++;
        token = 'fresh';
        return true;
      },
    });
    const response = await client.download('/report', { query: { export: 'true' } });
    expect(refreshes).toBe(1);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="user-report-2026.csv"');
    expect(await response.text()).toBe('User,Email\nNur User,user@demo.local\n');
    expect(accepted.at(-1)).toBe('*/*');
  });

  it("rejects with the server's sentence when the file is refused", async () => {
    const client = createApiClient({ baseURL: base, getToken: () => 'fresh', refresh: async () => false });
    const error = await client.download('/refused').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toBe('year must be a whole number from 2000 to 2100');
  });
});
