import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

// Debian's nginx in front of test instances, with the very proxy settings compose.yaml mounts
// (deploy/nginx/tanya-proxy.conf), on a loopback port with a temporary prefix: never the system's nginx.
// .ci/run installs nginx when missing, as it does Chromium.

export const NGINX = '/usr/sbin/nginx';
const PROXY_CONF = path.resolve('deploy/nginx/tanya-proxy.conf');

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts nginx proxying to `upstreams` (host:port each) and waits until it answers. `workerConnections`: each proxied
 * stream holds two (the client's and the upstream's); the bench's thousand streams need more than the default.
 */
export async function startNginx(upstreams: string[], options: { workerConnections?: number } = {}): Promise<Nginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: install it with "apt-get install -y nginx" (.ci/run does so when missing)`);
  const dir = await mkdtemp(path.join(tmpdir(), 'tanya-nginx-'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(
    conf,
    [
      // Run as whoever runs the tests (as root, workers would switch to nobody and lose the temporary prefix).
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      'error_log stderr warn;',
      'daemon off;',
      `events { worker_connections ${options.workerConnections ?? 1024}; }`,
      'http {',
      '  access_log off;',
      `  client_body_temp_path ${dir}/body;`,
      `  proxy_temp_path ${dir}/proxy;`,
      `  fastcgi_temp_path ${dir}/fastcgi;`,
      `  uwsgi_temp_path ${dir}/uwsgi;`,
      `  scgi_temp_path ${dir}/scgi;`,
      `  upstream tanya { ${upstreams.map((u) => `server ${u};`).join(' ')} keepalive 16; }`,
      `  server { listen 127.0.0.1:${port}; include ${PROXY_CONF}; }`,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}`);
    try {
      await fetch(`${url}/`, { signal: AbortSignal.timeout(1_000) });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not answer within 10 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
