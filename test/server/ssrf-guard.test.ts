import diagnostics from 'node:diagnostics_channel';
import http from 'node:http';
import type { AddressInfo, LookupFunction, Socket } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  guardedLookup,
  isPublicAddress,
  safeFetch,
  SafeFetchError,
  type ResolvedAddress,
  type SafeFetchOptions,
} from '../../server/services/chat/tools/safe-fetch';

/**
 * The SSRF guard, without sending traffic to private ranges: refusals are checked before any connection, and the
 * only addresses ever connected to are this test's own servers on 127.0.0.1 and [::1] (which count connections,
 * so a guard that let a request through would be seen).
 */

/** A local server that counts the connections it accepts and answers by path. */
interface CountingServer {
  port: number;
  connections: number;
  close(): Promise<void>;
}

async function countingServer(host: string, handler: http.RequestListener): Promise<CountingServer> {
  const server = http.createServer(handler);
  const counter = { connections: 0 };
  server.on('connection', () => counter.connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return Object.assign(counter, {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

const BIG = 3 * 1024 * 1024;

function pages(base: () => string): http.RequestListener {
  return (req, res) => {
    const path = req.url ?? '/';
    if (path === '/hello') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>hello</p>');
    else if (path === '/to-metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else if (path === '/to-other-port') res.writeHead(302, { location: 'http://127.0.0.1:9/' }).end();
    else if (path === '/to-file') res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    else if (path.startsWith('/loop/')) {
      const n = Number(path.slice(6));
      res.writeHead(302, { location: `${base()}/loop/${n + 1}` }).end();
    } else if (path === '/redirect-twice') res.writeHead(301, { location: '/loop-end-1' }).end();
    else if (path === '/loop-end-1') res.writeHead(307, { location: `${base()}/hello` }).end();
    else if (path === '/big-declared') res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(BIG) }).end();
    else if (path === '/big-chunked') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(Buffer.alloc(BIG, 'a'));
    } else if (path === '/gzip-bomb') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(Buffer.alloc(BIG, 'a')));
    } else if (path === '/gzip-small') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(Buffer.from('compressed text')));
    } else if (path === '/image') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(100));
    else if (path === '/hang') res.writeHead(200, { 'content-type': 'text/plain' }).write('partial');
    else if (path === '/missing') res.writeHead(404, { 'content-type': 'text/html' }).end('not here');
    else res.writeHead(500).end();
  };
}

/** Every client socket Node opens while a test runs, and whether it connected. */
const sockets: { connected: boolean; remotePort?: number }[] = [];
const onSocket = (message: unknown) => {
  const socket = (message as { socket: Socket }).socket;
  const entry: (typeof sockets)[number] = { connected: false };
  socket.once('connect', () => {
    entry.connected = true;
    entry.remotePort = socket.remotePort;
  });
  sockets.push(entry);
};

describe('SSRF guard (server/services/chat/tools/safe-fetch.ts)', () => {
  let v4: CountingServer;
  let v6: CountingServer;
  const base = () => `http://127.0.0.1:${v4.port}`;

  beforeAll(async () => {
    v4 = await countingServer('127.0.0.1', pages(base));
    v6 = await countingServer('::1', pages(() => `http://[::1]:${v6.port}`));
    diagnostics.subscribe('net.client.socket', onSocket);
  });
  afterEach(() => {
    sockets.length = 0;
    v4.connections = 0;
    v6.connections = 0;
  });
  afterAll(async () => {
    diagnostics.unsubscribe('net.client.socket', onSocket);
    await v4?.close();
    await v6?.close();
  });

  const options = (extra: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
    accept: ['text/html', 'text/plain'],
    maxBytes: 2 * 1024 * 1024,
    timeoutMs: 5_000,
    maxRedirects: 3,
    ...extra,
  });
  const allowV4 = () => ({ allowHosts: [`127.0.0.1:${v4.port}`] });

  async function refusal(url: string, extra: Partial<SafeFetchOptions> = {}): Promise<SafeFetchError> {
    const err = await safeFetch(url, options(extra)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, `${url} was fetched`).toBeInstanceOf(SafeFetchError);
    return err as SafeFetchError;
  }

  it('tells public unicast addresses from every other range', () => {
    for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    const refused = [
      '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
      '255.255.255.255', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::5', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
      '::ffff:169.254.169.254', '64:ff9b::a00:1', '2002:a00:1::', 'not an address',
    ];
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses IP literals of private ranges before any socket is made', async () => {
    const urls = [
      `http://127.0.0.1:${v4.port}/hello`,
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${v6.port}/hello`,
      `http://[::ffff:127.0.0.1]:${v4.port}/hello`,
      // The URL parser turns these spellings into 127.0.0.1 before the guard looks.
      `http://2130706433:${v4.port}/hello`,
      `http://0x7f.1:${v4.port}/hello`,
      'http://100.64.0.1/',
      'https://[fd00::1]/',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
    ];
    for (const url of urls) expect((await refusal(url)).failure, url).toBe('address');
    expect(sockets).toHaveLength(0);
    expect(v4.connections + v6.connections).toBe(0);
  });

  it('refuses what is not http(s) or carries credentials', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'data:text/plain,hi', 'not a url', 'http://user:pw@example.com/']) {
      expect((await refusal(url)).failure, url).toBe('scheme');
    }
    expect(sockets).toHaveLength(0);
  });

  it('checks every address a host name resolves to inside the lookup, before connecting', async () => {
    const answers: ResolvedAddress[][] = [
      [{ address: '127.0.0.1', family: 4 }],
      [{ address: '::1', family: 6 }],
      [{ address: '10.0.0.1', family: 4 }],
      [{ address: '169.254.169.254', family: 4 }],
      // One public address does not make a private one acceptable: the connection might use either.
      [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }],
    ];
    for (const answer of answers) {
      const lookup = guardedLookup(async () => answer);
      for (const all of [true, false]) {
        const result = await new Promise<{ err: Error | null; address: unknown }>((resolve) =>
          (lookup as (h: string, o: object, cb: (err: Error | null, address: unknown) => void) => void)('evil.test', { all }, (err, address) =>
            resolve({ err, address }),
          ),
        );
        expect(result.err, JSON.stringify(answer)).toBeInstanceOf(SafeFetchError);
        expect((result.err as SafeFetchError).failure).toBe('address');
      }
    }
  });

  it("answers a public host's addresses in both shapes net.connect asks for", async () => {
    const lookup = guardedLookup(async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]) as LookupFunction;
    const all = await new Promise<unknown>((resolve, reject) => lookup('example.test', { all: true }, (err, a) => (err ? reject(err) : resolve(a))));
    expect(all).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
    const one = await new Promise<unknown[]>((resolve, reject) => lookup('example.test', { family: 6 }, (err, a, f) => (err ? reject(err) : resolve([a, f]))));
    expect(one).toEqual(['2606:2800:220:1:248:1893:25c8:1946', 6]);
  });

  it('uses the guarded lookup for the connection itself: a name resolving to loopback never connects', async () => {
    for (const [address, family, server] of [['127.0.0.1', 4, v4], ['::1', 6, v6]] as const) {
      const resolved: string[] = [];
      const resolve = async (host: string) => {
        resolved.push(host);
        return [{ address, family }];
      };
      const err = await refusal(`http://evil.test:${server.port}/hello`, { resolve });
      expect(err.failure).toBe('address');
      expect(resolved).toEqual(['evil.test']);
    }
    expect(sockets.every((s) => !s.connected)).toBe(true);
    expect(v4.connections + v6.connections).toBe(0);
  });

  it('connects to the address the lookup checked (an explicitly allowed test host)', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const page = await safeFetch(`http://pages.test:${v4.port}/hello`, options({ resolve, allowHosts: [`pages.test:${v4.port}`] }));
    expect(page.body.toString()).toBe('<p>hello</p>');
    expect(page.contentType).toBe('text/html');
    expect(page.charset).toBe('utf-8');
    expect(v4.connections).toBe(1);
  });

  it('allows only the exact host and port listed, never by default', async () => {
    expect((await refusal(`${base()}/hello`, { allowHosts: [`127.0.0.1:${v4.port + 1}`] })).failure).toBe('address');
    expect((await refusal(`${base()}/hello`, { allowHosts: [] })).failure).toBe('address');
    expect(v4.connections).toBe(0);
    const page = await safeFetch(`${base()}/hello`, options(allowV4()));
    expect(page.body.toString()).toBe('<p>hello</p>');
    const v6Page = await safeFetch(`http://[::1]:${v6.port}/hello`, options({ allowHosts: [`[::1]:${v6.port}`] }));
    expect(v6Page.body.toString()).toBe('<p>hello</p>');
  });

  it('checks every redirect again, and follows at most three', async () => {
    expect((await refusal(`${base()}/to-metadata`, allowV4())).failure).toBe('address');
    expect((await refusal(`${base()}/to-other-port`, allowV4())).failure).toBe('address');
    expect((await refusal(`${base()}/to-file`, allowV4())).failure).toBe('scheme');
    expect((await refusal(`${base()}/loop/0`, allowV4())).failure).toBe('redirects');
    const page = await safeFetch(`${base()}/redirect-twice`, options(allowV4()));
    expect(page.url).toBe(`${base()}/hello`);
    // Only our own server was ever connected to (one connection per request, no keep-alive reuse).
    expect(sockets.filter((s) => s.connected).every((s) => s.remotePort === v4.port)).toBe(true);
  });

  it('enforces the size limit (declared, streamed and decompressed), the content types, the status and the time', async () => {
    const limits = { ...allowV4(), maxBytes: 1024 * 1024 };
    expect((await refusal(`${base()}/big-declared`, limits)).failure).toBe('too-large');
    expect((await refusal(`${base()}/big-chunked`, limits)).failure).toBe('too-large');
    expect((await refusal(`${base()}/gzip-bomb`, limits)).failure).toBe('too-large');
    expect((await safeFetch(`${base()}/gzip-small`, options(limits))).body.toString()).toBe('compressed text');
    const type = await refusal(`${base()}/image`, limits);
    expect(type.failure).toBe('type');
    expect(type.message).toBe('the content type image/png is not read');
    const missing = await refusal(`${base()}/missing`, limits);
    expect([missing.failure, missing.status, missing.message]).toEqual(['status', 404, 'the server answered HTTP 404']);
    const started = performance.now();
    const slow = await refusal(`${base()}/hang`, { ...limits, timeoutMs: 300 });
    expect(slow.failure).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
