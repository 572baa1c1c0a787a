import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';

describe('serving the built SPA', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'tanya-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), INDEX);
    await fs.writeFile(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    await fs.writeFile(path.join(dist, 'workbox-1a2b3c4d.js'), '/* workbox */');
    await fs.writeFile(path.join(dist, 'manifest.webmanifest'), '{"name":"Tanya"}');
    await fs.writeFile(path.join(dist, 'assets', 'index-AbC123.js'), 'console.log(1)');
    t = await createTestApp({ env: { STATIC_DIR: dist } });
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(t.config.staticDir, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('serves index.html for / and for any client-side route (history fallback), never cached', async () => {
    for (const url of ['/', '/login', '/chat?id=123', '/reset-password/abc', '/clients/1/users']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves the service worker from the root with no-cache and root scope', async () => {
    const res = await get('/sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/');
    const workbox = await get('/workbox-1a2b3c4d.js');
    expect(workbox.headers['cache-control']).toBe('no-cache');
    expect(workbox.headers['service-worker-allowed']).toBe('/');
    expect((await get('/manifest.webmanifest')).headers['cache-control']).toBe('no-cache');
  });

  it('caches hashed assets for a year, and answers 404 for a missing one', async () => {
    const res = await get('/assets/index-AbC123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/assets/index-gone.js')).statusCode).toBe(404);
  });

  it('keeps /api paths out of the fallback', async () => {
    const res = await get('/api/v1/unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 'error', detail: 'Not found' });
  });
});

describe('without a build', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers non-API paths with 404 and a hint to run the build', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('npm run build');
  });
});
