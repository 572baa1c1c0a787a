import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, e2eChromium } from './test/e2e/helpers/chromium-args';

// Local runs start the real server on a fresh data directory with the demo seed. QA points the same suite at
// staging with E2E_BASE_URL (and E2E_PASSWORD for the demo-style accounts there); then no server is started.
const port = Number(process.env.E2E_PORT ?? 8181);
const external = process.env.E2E_BASE_URL;
const baseURL = external ?? `http://127.0.0.1:${port}`;
// Per port, so two local runs (different E2E_PORT) never share a database; E2E_STATIC_DIR serves another build.
const dataDir = `test-results/e2e-data-${port}`;
const staticDir = process.env.E2E_STATIC_DIR ?? 'dist';
// The local server's web (test/e2e/helpers/slow-web.ts): a slow search and its pages, on the next port but one.
const webPort = port + 2;
// The local reCAPTCHA peer (test/e2e/helpers/recaptcha-peer.ts): the widget's script and the verifier, port + 3.
const recaptchaPort = port + 3;
// The local OpenID provider (test/e2e/helpers/oidc-peer.ts) standing in for Microsoft and Google, port + 4.
const oidcPort = port + 4;

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: `test-results/e2e-artifacts-${port}`,
  timeout: 30_000,
  // A screen's first render is app boot plus its lazy code: on 2 busy CI cores (two browsers and the server) the
  // heaviest (the UI-kit playground) took over 7 s at times. Speed is measured by `npm run bench`, not here.
  expect: { timeout: 15_000 },
  fullyParallel: true,
  // The suite mostly waits (streamed replies, servers, timers): a full run's processes (runner, workers, browsers,
  // server) used about 0.8 CPU-seconds per second with 3 workers even on the shared machine at load 30, and 2
  // workers left the 2 cores partly idle. A full run with 3 at that load had no failure of its own.
  workers: process.env.CI ? 3 : undefined,
  // CI runs on 2 busy cores, where a few timing-bound browser steps have missed once in a full run (see the
  // issue notes): one retry there, reported as flaky. Locally none, so a flake shows.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: true,
  use: {
    baseURL,
    // Recording a trace (DOM snapshots at every action, a screencast) costs every test CPU: 37 tests on one worker
    // took 36.5 s of test-runner CPU and 201 s with it, 21.6 s and 175 s without (loaded machine). CI retries a
    // failed test once and records that retry's trace; locally (no retries) every test records, a failure keeps it.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    // A first visit installs the service worker, whose activation may reload the page mid-test; only the PWA
    // tests allow it.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: e2eChromium,
      args: chromiumArgs,
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: external
    ? undefined
    : [
        {
          command: `tsx test/e2e/helpers/oidc-peer.ts ${oidcPort}`,
          url: `http://127.0.0.1:${oidcPort}/.well-known/openid-configuration`,
          reuseExistingServer: false,
          timeout: 30_000,
        },
        {
          command: `tsx test/e2e/helpers/recaptcha-peer.ts ${recaptchaPort}`,
          url: `http://127.0.0.1:${recaptchaPort}/recaptcha/api.js`,
          reuseExistingServer: false,
          timeout: 30_000,
        },
        {
          command: `tsx test/e2e/helpers/slow-web.ts ${webPort}`,
          url: `http://127.0.0.1:${webPort}/pages/article.html`,
          reuseExistingServer: false,
          timeout: 30_000,
        },
        {
          command: `rm -rf ${dataDir} && tsx server/main.ts`,
          url: `${baseURL}/api/v1/health`,
          reuseExistingServer: false,
          timeout: 60_000,
          stdout: 'pipe',
          env: {
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_DIR: dataDir,
            STATIC_DIR: staticDir,
            PUBLIC_URL: baseURL,
            DEMO_PASSWORD: process.env.E2E_PASSWORD ?? 'demo-e2e-password',
            LOGIN_RATE_LIMIT_PER_IP: '10000',
            LOGIN_RATE_LIMIT_PER_EMAIL: '10000',
            RESET_RATE_LIMIT_PER_IP: '10000',
            RESET_RATE_LIMIT_PER_EMAIL: '10000',
            MESSAGE_RATE_LIMIT_PER_USER: '10000',
            UPLOAD_RATE_LIMIT_PER_USER: '10000',
            // A fixed test key: the Clients page's OAuth configurations are sealed with it (never a real one).
            OAUTH_SECRET_KEY: '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
            FEEDBACK_RATE_LIMIT_PER_USER: '10000',
            PROMPT_RATE_LIMIT_PER_USER: '10000',
            LOG_LEVEL: 'warn',
            // Every test signs in (through the API) and sets up through it: argon2id at its default cost took about
            // 0.5 s per sign-in on a loaded machine, at 'low' about 1 ms. Only the local server; staging keeps its own.
            PASSWORD_HASH_COST: 'low',
            // The offline responder streams its reply (about 130 words) in 5 s: slow enough that a test sees it stream
            // and can act mid-reply even on a busy 2-core machine, fast enough for the suite. Three words a delta:
            // each delta is a render of the reply, and one reply's renderer took 2.45 CPU-s word by word (40 ms
            // apart), 1.58 three words at a time (120 ms apart), so the suite's many replies cost a third less.
            OFFLINE_TOKEN_DELAY_MS: '120',
            OFFLINE_WORDS_PER_DELTA: '3',
            // Web browsing searches the slow local web; its page is on 127.0.0.1, which only this allowance lets through.
            SEARCH_PROVIDER: 'searxng',
            SEARCH_URL: `http://127.0.0.1:${webPort}/searxng`,
            WEB_FETCH_ALLOW_HOSTS: `127.0.0.1:${webPort}`,
            // The landing page's contact form, verified by the local reCAPTCHA peer (never Google's).
            RECAPTCHA_SITE_KEY: 'e2e-site-key',
            RECAPTCHA_SECRET: 'e2e-recaptcha-secret',
            RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${recaptchaPort}/recaptcha/api/siteverify`,
            RECAPTCHA_SCRIPT_URL: `http://127.0.0.1:${recaptchaPort}/recaptcha/api.js`,
            CONTACT_RATE_LIMIT_PER_IP: '10000',
            // Microsoft and Google sign-in against the local OpenID provider.
            MICROSOFT_ISSUER: `http://127.0.0.1:${oidcPort}`,
            GOOGLE_ISSUER: `http://127.0.0.1:${oidcPort}`,
          },
        },
      ],
});
