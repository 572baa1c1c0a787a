import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { decode, encode } from 'gpt-tokenizer';
import { launchBenchBrowser } from './browser';
import { build } from 'vite';
import type { MeasureRequest, MeasureResult, RendererKind } from './render-page/main';
import { prng } from './prng';
import { ratioOf, reportGoal } from './goal-line';

// Streaming render benchmark: a synthetic 20k-token reply streamed token by token into AssistantMarkdown and into
// a plain react-markdown re-render of the whole text, timed per update in headless Chromium.

/** Goal: an update at 20k tokens costs at most this (median, ms). */
export const RENDER_UPDATE_GOAL_MS = 4;
export const SIZES = [1_000, 5_000, 20_000];
const SAMPLES: Record<RendererKind, number> = { ours: 300, plain: 100 };
const WARMUP = 20;

// ------------------------------------------------------------------------------------------ synthetic reply


const WORDS = (
  'the a of to and in is for that with as on by this be are from it at an or can which when each your request ' +
  'server client cache token stream message render block table list value config option user policy model reply ' +
  'request response update memory index query latency budget error retry queue worker thread buffer offset limit ' +
  'organisation document search result summary section example detail number version release review deploy'
).split(' ');

/** A deterministic markdown reply of at least `minChars` characters: headings, paragraphs, lists, code, tables. */
export function syntheticReply(minChars: number, seed = 42): string {
  const random = prng(seed);
  const pick = <T,>(items: T[]) => items[Math.floor(random() * items.length)];
  const words = (min: number, max: number) => {
    const n = min + Math.floor(random() * (max - min + 1));
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      let w = pick(WORDS);
      const r = random();
      if (r < 0.04) w = `**${w} ${pick(WORDS)}**`;
      else if (r < 0.07) w = `\`${w}_${pick(WORDS)}\``;
      else if (r < 0.09) w = `[${w}](https://example.com/docs/${pick(WORDS)})`;
      else if (r < 0.1) w = `*${w}*`;
      out.push(w);
    }
    const s = out.join(' ');
    return s[0].toUpperCase() + s.slice(1);
  };
  const paragraph = () => `${words(25, 70)}. ${words(10, 30)}.`;
  const list = () => {
    const ordered = random() < 0.4;
    const items: string[] = [];
    const n = 3 + Math.floor(random() * 4);
    for (let i = 0; i < n; i++) {
      items.push(`${ordered ? `${i + 1}.` : '-'} ${words(4, 14)}`);
      if (random() < 0.25) items.push(`   - ${words(3, 9)}`);
    }
    return items.join('\n');
  };
  const code = () => {
    const lang = pick(['ts', 'python', 'bash', 'json']);
    const lines: string[] = [];
    const n = 6 + Math.floor(random() * 12);
    for (let i = 0; i < n; i++) {
      const name = `${pick(WORDS)}_${pick(WORDS)}`;
      if (lang === 'python') lines.push(i % 4 === 0 ? `def ${name}(value):` : `    ${name} = value * ${i} + len("${pick(WORDS)}")`);
      else if (lang === 'bash') lines.push(`curl -s https://example.com/${pick(WORDS)} | grep ${pick(WORDS)} # ${pick(WORDS)}`);
      else if (lang === 'json') lines.push(`  "${name}": ${i % 3 === 0 ? `"${pick(WORDS)}"` : i * 7},`);
      else lines.push(i % 5 === 0 ? `function ${name}(value: number): number {` : `  const ${name} = value * ${i}; // ${pick(WORDS)}`);
      if (random() < 0.08) lines.push('');
    }
    return `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``;
  };
  const table = () => {
    const rows = ['| Name | Value | Notes |', '| --- | ---: | --- |'];
    const n = 3 + Math.floor(random() * 5);
    for (let i = 0; i < n; i++) rows.push(`| ${pick(WORDS)} | ${Math.floor(random() * 1000)} | ${words(2, 6)} |`);
    return rows.join('\n');
  };
  const parts: string[] = [];
  let size = 0;
  for (let section = 1; size < minChars; section++) {
    const blocks = [`## ${section}. ${words(2, 5)}`, paragraph()];
    const count = 3 + Math.floor(random() * 4);
    for (let i = 0; i < count; i++) {
      const r = random();
      blocks.push(r < 0.35 ? paragraph() : r < 0.6 ? list() : r < 0.8 ? code() : r < 0.92 ? table() : `> ${words(8, 20)}.`);
    }
    const chunk = blocks.join('\n\n');
    parts.push(chunk);
    size += chunk.length + 2;
  }
  return parts.join('\n\n');
}

/** The reply cut into tokens (GPT tokenizer): `ends[i]` is the text length after token i. */
function tokenize(text: string, tokens: number): { text: string; ends: number[] } {
  const ids = encode(text).slice(0, tokens);
  const ends: number[] = [];
  let length = 0;
  for (const id of ids) {
    length += decode([id]).length;
    ends.push(length);
  }
  return { text: text.slice(0, length), ends };
}

// ------------------------------------------------------------------------------------------------ harness

async function buildPage(outDir: string) {
  await build({
    configFile: false,
    root: path.resolve('test/bench/render-page'),
    base: './',
    logLevel: 'warn',
    plugins: [react(), tailwindcss()],
    build: { outDir, emptyOutDir: true, target: 'es2022', manifest: true, reportCompressedSize: false, chunkSizeWarningLimit: 4096 },
  });
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

/** A static server; cross-origin isolated so performance.now() is precise to microseconds, not 100 µs. */
async function serve(dir: string) {
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(dir) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

/** Gzip sizes of the page's entry chunk and of the chunks it loads lazily. */
function chunkSizes(dir: string) {
  const manifest = JSON.parse(readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; isEntry?: boolean; isDynamicEntry?: boolean; css?: string[] }
  >;
  const gzipKb = (file: string) => gzipSync(readFileSync(path.join(dir, file)), { level: 9 }).length / 1024;
  return Object.entries(manifest)
    .filter(([, chunk]) => chunk.isEntry || chunk.isDynamicEntry)
    .map(([source, chunk]) => ({
      source,
      file: chunk.file,
      lazy: !chunk.isEntry,
      gzipKb: gzipKb(chunk.file),
      cssKb: (chunk.css ?? []).reduce((n, f) => n + gzipKb(f), 0),
    }));
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

export interface RenderStreamRow {
  tokens: number;
  kind: RendererKind;
  median: number;
  p95: number;
  mountMs: number;
  samples: number;
  counts: Record<string, number>;
}

export async function measureRenderStream(executablePath: string) {
  // RENDER_BENCH_OUT=<dir> keeps the built bench page there (to look at its chunks and CSS).
  const keep = process.env.RENDER_BENCH_OUT;
  const outDir = keep ? path.resolve(keep) : mkdtempSync(path.join(tmpdir(), 'tanya-render-bench-'));
  try {
    await buildPage(outDir);
    const chunks = chunkSizes(outDir);
    const reply = tokenize(syntheticReply(120_000), Math.max(...SIZES));
    const server = await serve(outDir);
    const browser = await launchBenchBrowser(executablePath);
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => 'renderBench' in window);
      await page.evaluate((data) => window.renderBench.load(data), reply);
      // Warm the JIT so the first size measured is not the slow one.
      for (const kind of ['ours', 'plain'] as const) {
        await page.evaluate((r) => window.renderBench.measure(r), { kind, atTokens: 1_000, samples: 60, warmup: 0 });
      }
      const rows: RenderStreamRow[] = [];
      for (const tokens of SIZES) {
        for (const kind of ['ours', 'plain'] as const) {
          const request: MeasureRequest = { kind, atTokens: tokens, samples: SAMPLES[kind], warmup: WARMUP };
          const result: MeasureResult = await page.evaluate((r) => window.renderBench.measure(r), request);
          rows.push({
            tokens,
            kind,
            median: quantile(result.times, 0.5),
            p95: quantile(result.times, 0.95),
            mountMs: result.mountMs,
            samples: result.times.length,
            counts: result.counts,
          });
        }
      }
      return { rows, chunks, replyKb: reply.text.length / 1024 };
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    if (!keep) rmSync(outDir, { recursive: true, force: true });
  }
}

/** Prints the section of `npm run bench`. */
export function printRenderStream({ rows, chunks, replyKb }: Awaited<ReturnType<typeof measureRenderStream>>) {
  const ms = (n: number) => n.toFixed(2).padStart(8);
  console.log(`\nStreaming render, ms per update (render + commit in flushSync), synthetic reply ${replyKb.toFixed(0)} KB at 20k tokens:`);
  console.log('   tokens  |  AssistantMarkdown median / p95  |  plain react-markdown median / p95  |  mount (median of 3) ours / plain');
  for (const tokens of SIZES) {
    const ours = rows.find((r) => r.tokens === tokens && r.kind === 'ours')!;
    const plain = rows.find((r) => r.tokens === tokens && r.kind === 'plain')!;
    console.log(
      `  ${String(tokens).padStart(7)}  |  ${ms(ours.median)} / ${ms(ours.p95)}           |  ${ms(plain.median)} / ${ms(plain.p95)}             |  ${ms(ours.mountMs)} / ${ms(plain.mountMs)}`,
    );
    if (JSON.stringify(ours.counts) !== JSON.stringify(plain.counts)) {
      console.log(`           ! element counts differ: ours ${JSON.stringify(ours.counts)} plain ${JSON.stringify(plain.counts)}`);
    }
  }
  const at20k = rows.find((r) => r.tokens === 20_000 && r.kind === 'ours')!;
  const plain20k = rows.find((r) => r.tokens === 20_000 && r.kind === 'plain')!;
  reportGoal({
    what: 'streaming render, one update at 20k tokens (median)',
    measured: `${at20k.median.toFixed(2)} ms`,
    reference: `plain react-markdown ${plain20k.median.toFixed(2)} ms`,
    ratio: ratioOf(at20k.median, plain20k.median),
    goal: `at most ${RENDER_UPDATE_GOAL_MS} ms`,
    pass: at20k.median <= RENDER_UPDATE_GOAL_MS,
  });
  console.log(`  (samples: ${SAMPLES.ours} ours, ${SAMPLES.plain} plain per size)`);
  console.log('  bench page chunks (gzip, level 9):');
  for (const c of chunks) {
    console.log(`    ${c.gzipKb.toFixed(1).padStart(7)} KB${c.cssKb ? ` + ${c.cssKb.toFixed(1)} KB css` : ''}  ${c.lazy ? 'lazy ' : 'entry'}  ${c.source}`);
  }
}

// `npx tsx test/bench/render-stream.ts` runs this section alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  printRenderStream(await measureRenderStream(chrome));
}
