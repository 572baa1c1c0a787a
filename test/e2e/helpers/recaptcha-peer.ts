import { createServer, type IncomingMessage } from 'node:http';
import { pathToFileURL } from 'node:url';

// A local stand-in for Google's reCAPTCHA v2 (the one part of the contact form we cannot reach offline): the
// widget's script with Google's explicit-render API (`grecaptcha.render/reset/getResponse`), and the verifier the
// server POSTs tokens to. The widget is a button "I'm not a robot"; its tokens start with 'pass-' and verify, unless
// a test sets `window.__recaptchaPeer.nextToken` (e.g. 'fail-x', which the verifier refuses). `__recaptchaPeer.expire()`
// and `.error()` call the last widget's expired and error callbacks.
//
// Server tests: `startRecaptchaPeer({ secret })`; Playwright: `tsx test/e2e/helpers/recaptcha-peer.ts <port> [secret]`.

const WIDGET_SCRIPT = `(() => {
  const widgets = [];
  const peer = (window.__recaptchaPeer = window.__recaptchaPeer || {});
  const last = () => widgets[widgets.length - 1];
  peer.expire = () => { const w = last(); if (w) { w.token = ''; w.button.setAttribute('aria-pressed', 'false'); w.options['expired-callback'] && w.options['expired-callback'](); } };
  peer.error = () => { const w = last(); if (w) { w.token = ''; w.options['error-callback'] && w.options['error-callback'](); } };
  window.grecaptcha = {
    render(el, options) {
      const container = typeof el === 'string' ? document.getElementById(el) : el;
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = "I'm not a robot";
      button.setAttribute('aria-pressed', 'false');
      button.style.cssText = 'padding:10px 14px;border:1px solid #888;border-radius:4px;background:#f9f9f9;color:#111;font:14px sans-serif';
      const widget = { options, button, token: '' };
      button.addEventListener('click', () => {
        widget.token = peer.nextToken || 'pass-' + Math.random().toString(36).slice(2);
        peer.nextToken = undefined;
        button.setAttribute('aria-pressed', 'true');
        options.callback && options.callback(widget.token);
      });
      container.appendChild(button);
      widgets.push(widget);
      return widgets.length - 1;
    },
    reset(id) { const w = widgets[id === undefined ? widgets.length - 1 : id]; if (w) { w.token = ''; w.button.setAttribute('aria-pressed', 'false'); } },
    getResponse(id) { const w = widgets[id === undefined ? widgets.length - 1 : id]; return w ? w.token : ''; },
    ready(cb) { cb(); },
  };
  const onload = new URL(document.currentScript.src).searchParams.get('onload');
  if (onload && typeof window[onload] === 'function') window[onload]();
})();`;

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export interface RecaptchaPeer {
  url: string;
  verifyUrl: string;
  scriptUrl: string;
  /** The tokens the verifier was asked about, with the address sent along. */
  checked: Array<{ response: string; remoteip: string | null }>;
  close(): Promise<void>;
}

export async function startRecaptchaPeer({ port = 0, secret = 'e2e-recaptcha-secret' } = {}): Promise<RecaptchaPeer> {
  const checked: RecaptchaPeer['checked'] = [];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://peer').pathname;
    if (req.method === 'GET' && path === '/recaptcha/api.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(WIDGET_SCRIPT);
    }
    if (req.method === 'POST' && path === '/recaptcha/api/siteverify') {
      const form = await formOf(req);
      const response = form.get('response') ?? '';
      checked.push({ response, remoteip: form.get('remoteip') });
      const codes = form.get('secret') !== secret ? ['invalid-input-secret'] : response.startsWith('pass-') ? [] : ['invalid-input-response'];
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ success: codes.length === 0, 'error-codes': codes }));
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  return {
    url,
    verifyUrl: `${url}/recaptcha/api/siteverify`,
    scriptUrl: `${url}/recaptcha/api.js`,
    checked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const peer = await startRecaptchaPeer({ port: Number(process.argv[2] ?? 0), secret: process.argv[3] });
  console.log(`reCAPTCHA peer at ${peer.url}`);
}
