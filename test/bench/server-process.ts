import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** No backup model, whatever the shell has set. */
export const NO_BACKUP_MODEL_ENV = { LLM_BACKUP_MODEL: '', LLM_BACKUP_BASE_URL: '', LLM_BACKUP_API_KEY: '' };
/** The offline responder answers, whatever model the shell has set. */
export const OFFLINE_MODEL_ENV = { LLM_MODEL: '', LLM_BASE_URL: '', LLM_API_KEY: '', ...NO_BACKUP_MODEL_ENV };

/** The demo accounts' password on a bench server (DEMO_PASSWORD). */
export const BENCH_DEMO_PASSWORD = 'bench-password';

/** Signs a demo account in on a bench server (password BENCH_DEMO_PASSWORD); returns its access token. */
export async function benchSignIn(serverUrl: string, email: string): Promise<string> {
  const login = await fetch(`${serverUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_DEMO_PASSWORD }),
  });
  if (!login.ok) throw new Error(`login answered ${login.status}`);
  return ((await login.json()) as { data: { access_token: string } }).data.access_token;
}

export interface BenchServer {
  url: string;
  /** The server's DATA_DIR (its SQLite database is `tanya.db` in it); removed by stop() unless it was given. */
  dataDir: string;
  pid: number;
  stop(): Promise<void>;
  /** kill -9: the process dies mid-work, as in a crash; the data directory is kept. */
  crash(): Promise<void>;
}

export interface StartOptions {
  /** Start on this existing data directory (a restart on the same data); the caller removes it. */
  dataDir?: string;
  /** Each line the server writes to stdout (its JSON log), when given; else stdout is ignored. */
  onStdout?: (line: string) => void;
  /** Node options for the server process (e.g. --cpu-prof), before its entry point. */
  nodeArgs?: string[];
}

/** Servers still running and directories still to remove: cleaned up on Ctrl-C and at exit too. */
const running = new Set<ChildProcess>();
const directories = new Set<string>();
let hooked = false;

function cleanUpNow() {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of directories) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

function hookExit() {
  if (hooked) return;
  hooked = true;
  process.once('exit', cleanUpNow);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      cleanUpNow();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

/** Removes `dir` when the bench exits, however it exits (normally it is removed earlier, by its owner). */
export function removeOnExit(dir: string): void {
  hookExit();
  directories.add(dir);
}

/** A port free right now on 127.0.0.1 (the OS picks it). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((r) => probe.close(r));
  if (!address || typeof address === 'string') throw new Error('could not find a free port');
  return address.port;
}

/**
 * Starts the real server (built SPA, fresh data directory) for a benchmark and stops it afterwards.
 * Port 0: any free port. `extraEnv` goes on top of the bench defaults (e.g. LLM_* for a scripted model).
 */
export async function startServer(port: number, extraEnv: Record<string, string> = {}, opts: StartOptions = {}): Promise<BenchServer> {
  hookExit();
  const listenPort = port === 0 ? await freePort() : port;
  const ownsDataDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tanya-bench-'));
  if (ownsDataDir) directories.add(dataDir);
  const child: ChildProcess = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(listenPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_PASSWORD: BENCH_DEMO_PASSWORD,
      LOG_LEVEL: 'warn',
      MESSAGE_RATE_LIMIT_PER_USER: '10000',
      ...extraEnv,
    },
    stdio: ['ignore', opts.onStdout ? 'pipe' : 'ignore', 'inherit'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (opts.onStdout && child.stdout) {
    const onLine = opts.onStdout;
    createInterface({ input: child.stdout }).on('line', onLine);
  }

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      // The server allows itself 10 s to close; a stuck one is killed.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    running.delete(child);
    if (ownsDataDir) {
      rmSync(dataDir, { recursive: true, force: true });
      directories.delete(dataDir);
    }
  };
  const crash = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    running.delete(child);
  };

  const url = `http://127.0.0.1:${listenPort}`;
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited during start-up (${child.exitCode ?? child.signalCode})`);
      try {
        if ((await fetch(`${url}/api/v1/health`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('server did not start within 60 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, dataDir, pid: child.pid ?? 0, stop, crash };
}
