import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';

/**
 * Fetches a URL that came from outside (a search result, an image model's answer) without letting it reach this
 * server's own network (SSRF): only http(s), and every address the connection may use must be a public unicast
 * one. The check runs inside the connection's own `lookup`, so the address checked is the address connected to
 * (no second DNS answer between a check and the connect). Redirects are followed by hand, each one checked again.
 */

export type SafeFetchFailure =
  /** Not http(s), or not a URL at all. */
  | 'scheme'
  /** A loopback, private, link-local, CGNAT, unique-local, mapped or otherwise non-public address. */
  | 'address'
  /** The host name does not resolve. */
  | 'dns'
  | 'redirects'
  | 'status'
  /** A content type the caller does not read. */
  | 'type'
  | 'too-large'
  | 'timeout'
  /** The connection failed or broke. */
  | 'network';

/** Why a fetch was refused or failed: `message` is safe to show (no URL query, no header, no stack). */
export class SafeFetchError extends Error {
  override name = 'SafeFetchError';
  constructor(
    readonly failure: SafeFetchFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all of its addresses. Injected by tests (no DNS, no traffic to the answers). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface SafeFetchOptions {
  /** Content types read (lower case, without parameters), e.g. ['text/html', 'text/plain']. */
  accept: readonly string[];
  /** The body's limit in bytes (after decompression); larger answers fail with 'too-large'. */
  maxBytes: number;
  /** For the whole fetch, redirects included. */
  timeoutMs: number;
  maxRedirects: number;
  /**
   * `host:port` pairs (e.g. '127.0.0.1:43123') that may be reached although their address is not public. Empty by
   * default: the tests' local search provider and pages listen on 127.0.0.1, and a deliberately configured intranet
   * host can be let through this way (WEB_FETCH_ALLOW_HOSTS). Exact host and port: a redirect from an allowed
   * host to another port or host of the private network is still refused.
   */
  allowHosts?: readonly string[];
  resolve?: Resolver;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface SafeResponse {
  /** The URL finally read, after redirects. */
  url: string;
  status: number;
  /** Lower case, without parameters. */
  contentType: string;
  /** From the Content-Type's charset parameter, when there was one. */
  charset: string | undefined;
  body: Buffer;
}

/** True for a public unicast address: ipaddr.process turns IPv4-mapped IPv6 into the IPv4 address it carries. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * The `lookup` of the connection: resolves with `resolve`, refuses unless every address is public (a name with
 * one public and one private address could otherwise be steered to the private one), and answers in both shapes
 * net.connect asks for (one address, or all of them when it tries several: autoSelectFamily).
 */
export function guardedLookup(resolve: Resolver, allowPrivate = false): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((found) => {
        const addresses = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (addresses.length === 0) throw new SafeFetchError('dns', `${hostname} has no address`);
        if (!allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) {
          throw new SafeFetchError('address', `${hostname} leads to an address that is not public`);
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      })
      .catch((err: unknown) => {
        const error =
          err instanceof SafeFetchError ? err : new SafeFetchError('dns', `${hostname} could not be resolved`);
        callback(error as NodeJS.ErrnoException, '', 0);
      });
  };
}

/** The URL's host without IPv6 brackets, and its port (the scheme's default when none is written). */
function hostAndPort(url: URL): { host: string; port: number } {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { host, port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 };
}

/**
 * Refuses, before any connection, what can be decided from the URL alone: another scheme, or an IP literal that is
 * not public (the URL parser has already turned forms like 2130706433 or 0x7f.1 into dotted IPv4). Returns whether
 * the host is on the allow list.
 */
export function checkUrl(url: URL, allowHosts: readonly string[] = []): { allowed: boolean } {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SafeFetchError('scheme', 'only http and https addresses are read');
  if (url.username || url.password) throw new SafeFetchError('scheme', 'addresses with credentials are not read');
  const { host, port } = hostAndPort(url);
  const allowed = allowHosts.includes(`${host}:${port}`) || allowHosts.includes(`[${host}]:${port}`);
  if (!allowed && isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new SafeFetchError('address', `${host} is not a public address`);
  }
  return { allowed };
}

export async function safeFetch(input: string, options: SafeFetchOptions): Promise<SafeResponse> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SafeFetchError('scheme', 'not a valid address');
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    for (let redirects = 0; ; redirects++) {
      const res = await request(url, options, signal);
      const location = res.headers.location;
      if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
        res.destroy();
        if (redirects >= options.maxRedirects) throw new SafeFetchError('redirects', `more than ${options.maxRedirects} redirects`);
        try {
          url = new URL(location, url);
        } catch {
          throw new SafeFetchError('scheme', 'a redirect to an invalid address');
        }
        continue;
      }
      return await readResponse(url, res, options);
    }
  } catch (err) {
    if (err instanceof SafeFetchError) throw err;
    if (timeout.aborted) throw new SafeFetchError('timeout', `no complete answer within ${Math.round(options.timeoutMs / 1000)} s`);
    if (signal.aborted) throw new SafeFetchError('network', 'the fetch was cancelled');
    throw new SafeFetchError('network', 'the connection failed');
  }
}

/** One request, no redirects followed. Its connection comes from a fresh agent whose lookup is guarded. */
function request(url: URL, options: SafeFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const { allowed } = checkUrl(url, options.allowHosts);
  const lookup = guardedLookup(options.resolve ?? systemResolver, allowed);
  // A fresh agent per request without keep-alive: no pooled socket (opened earlier, or for another purpose) is
  // ever reused, so every connection went through this lookup.
  const agent = url.protocol === 'https:' ? new https.Agent({ lookup, keepAlive: false }) : new http.Agent({ lookup, keepAlive: false });
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'GET',
      agent,
      signal,
      headers: {
        'user-agent': 'Tanya/2 (+web browsing)',
        accept: options.accept.join(', '),
        'accept-encoding': 'gzip, deflate, br',
        ...options.headers,
      },
    });
    req.once('response', resolve);
    // The lookup's refusal (a SafeFetchError) arrives here as it was made.
    req.once('error', reject);
    req.end();
  });
}

async function readResponse(url: URL, res: IncomingMessage, options: SafeFetchOptions): Promise<SafeResponse> {
  const status = res.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    res.destroy();
    throw new SafeFetchError('status', `the server answered HTTP ${status}`, status);
  }
  const [type, ...params] = (res.headers['content-type'] ?? '').split(';');
  const contentType = type.trim().toLowerCase();
  if (!options.accept.includes(contentType)) {
    res.destroy();
    throw new SafeFetchError('type', `the content type ${contentType || '(none)'} is not read`);
  }
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    res.destroy();
    throw new SafeFetchError('too-large', `larger than ${formatBytes(options.maxBytes)}`);
  }
  const charset = params
    .map((p) => /^\s*charset\s*=\s*"?([^";]+)"?\s*$/i.exec(p)?.[1])
    .find((c) => c !== undefined)
    ?.toLowerCase();
  const body = await readCapped(decoded(res), options.maxBytes);
  return { url: url.href, status, contentType, charset, body };
}

/** The body without its content encoding (a compressed body is counted after decompression: no zip bombs). */
function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

async function readCapped(stream: Readable, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw new SafeFetchError('too-large', `larger than ${formatBytes(maxBytes)}`);
      parts.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(parts);
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}
