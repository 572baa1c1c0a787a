import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { AssistantMarkdown } from '../../../src/ui/markdown/assistant-markdown';
import './bench.css';

// Bench-only page (test/bench/render-stream.ts builds it with Vite): streams a reply into a component one token
// at a time and times each update (render + commit + synchronous effects, inside flushSync).

export type RendererKind = 'ours' | 'plain';

export interface MeasureRequest {
  kind: RendererKind;
  /** Measure the updates that end at this many tokens. */
  atTokens: number;
  samples: number;
  warmup: number;
}

export interface MeasureResult {
  times: number[];
  /** Time to mount the whole reply at `atTokens` at once (history, not streaming), median of 3. */
  mountMs: number;
  /** Element counts of the final render: both renderers must build the same structure. */
  counts: Record<string, number>;
}

const plainPlugins = [remarkGfm];

function Plain({ content }: { content: string; streaming: boolean }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={plainPlugins}>{content}</Markdown>
    </div>
  );
}

const renderers = { ours: AssistantMarkdown, plain: Plain };

let text = '';
let ends: number[] = [];

/** Lets React's deferred work (highlighting a finished code block), GC and painting run between updates. */
const yieldTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

async function measure({ kind, atTokens, samples, warmup }: MeasureRequest): Promise<MeasureResult> {
  const Component = renderers[kind];
  const host = document.createElement('div');
  document.getElementById('bench')!.append(host);
  const root = createRoot(host);
  const prefix = (tokens: number) => text.slice(0, ends[tokens - 1]);

  const mounts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    flushSync(() => root.render(<Component key={i} content={prefix(atTokens)} streaming={false} />));
    mounts.push(performance.now() - start);
    flushSync(() => root.render(null));
    await yieldTask();
  }
  const mountMs = mounts.sort((a, b) => a - b)[1];

  const first = atTokens - samples - warmup;
  flushSync(() => root.render(<Component content={prefix(first)} streaming />));
  await yieldTask();
  const times: number[] = [];
  for (let tokens = first + 1; tokens <= atTokens; tokens++) {
    const content = prefix(tokens);
    const start = performance.now();
    flushSync(() => root.render(<Component content={content} streaming />));
    const elapsed = performance.now() - start;
    if (tokens > first + warmup) times.push(elapsed);
    await yieldTask();
  }
  flushSync(() => root.render(<Component content={prefix(atTokens)} streaming={false} />));
  const counts: Record<string, number> = {};
  for (const tag of ['p', 'li', 'pre', 'table', 'h2', 'blockquote']) counts[tag] = host.getElementsByTagName(tag).length;
  root.unmount();
  host.remove();
  return { times, mountMs, counts };
}

declare global {
  interface Window {
    renderBench: {
      load(data: { text: string; ends: number[] }): void;
      measure(request: MeasureRequest): Promise<MeasureResult>;
    };
  }
}

window.renderBench = {
  load(data) {
    text = data.text;
    ends = data.ends;
  },
  measure,
};
