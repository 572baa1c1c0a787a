import { execSync } from 'node:child_process';
import { LOGIN_JS_BUDGET_KB, measureLoginJs } from './login-bundle';
import { measureRenderStream, printRenderStream } from './render-stream';
import { startServer } from './server-process';

// `npm run bench`: numbers, not pass/fail timings. Builds the SPA first: a stale dist/ would measure old code.
const chrome = execSync('bash scripts/find-chromium.sh', { encoding: 'utf8' }).trim();
execSync('npx vite build --logLevel warn', { stdio: 'inherit' });

const server = await startServer(Number(process.env.BENCH_PORT ?? 8191));
try {
  const login = await measureLoginJs(server.url, chrome);
  console.log('\nJS loaded by the login route (gzip, level 9):');
  for (const s of login.scripts) console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(7)} KB  ${s.url}  (${(s.raw / 1024).toFixed(1)} KB raw)`);
  console.log(`  ${login.totalGzipKb.toFixed(1).padStart(7)} KB  total — goal at most ${LOGIN_JS_BUDGET_KB} KB`);
} finally {
  await server.stop();
}

// Streaming render of the assistant markdown renderer (its own bench page, no server needed).
printRenderStream(await measureRenderStream(chrome));
