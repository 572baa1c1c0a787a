import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentMarker, errorMarker, imageMarker, toolsMarker } from '../../shared/markers';
import { copyMessage, markdownToHtml, markdownToPlainText } from '../../src/ui/markdown/copy-message';

const BASE = 'https://tanya.example/chat/42';

const REPLY = [
  '# Summary',
  'Some **bold** and *soft* text with a [link](https://example.com/a) and `code`.',
  '- first\n- second\n  1. nested',
  '| Name | Value |\n| --- | ---: |\n| a | 1 |',
  '```ts\nconst x = 1;\n```',
  imageMarker('/api/v1/files/cat.png', 'A cat'),
  documentMarker('/api/v1/files/q3.pdf', 'Q3.pdf'),
  errorMarker('max-tokens', 'Ask me to continue.'),
  toolsMarker('Looked at 3 pages.', 'Searched the web'),
].join('\n\n');

describe('markdownToPlainText', () => {
  it('drops markdown syntax and writes markers out as readable text', () => {
    expect(markdownToPlainText(REPLY, { baseUrl: BASE })).toBe(
      [
        'Summary',
        'Some bold and soft text with a link (https://example.com/a) and code.',
        '- first\n- second\n  1. nested',
        'Name\tValue\na\t1',
        'const x = 1;',
        '[Image: A cat] https://tanya.example/api/v1/files/cat.png',
        '[Document: Q3.pdf] https://tanya.example/api/v1/files/q3.pdf',
        'The reply reached the token limit\nAsk me to continue.',
        'Searched the web\nLooked at 3 pages.',
      ].join('\n\n'),
    );
  });

  it('writes an llm error marker with its title, task items with boxes, and keeps relative URLs without a base', () => {
    expect(markdownToPlainText(':::error\nTimed out.\n:::')).toBe('The model could not answer\nTimed out.');
    expect(markdownToPlainText('- [x] done\n- [ ] todo')).toBe('- [x] done\n- [ ] todo');
    expect(markdownToPlainText('::image{url="/api/v1/files/a.png"}')).toBe('[Image] /api/v1/files/a.png');
  });

  it('keeps raw HTML as text and drops unsafe link targets', () => {
    expect(markdownToPlainText('<b>x</b> [y](javascript:alert(1))')).toBe('<b>x</b> y');
  });
});

describe('markdownToHtml', () => {
  const html = markdownToHtml(REPLY, { baseUrl: BASE });

  it('gives HTML with inline styles Word understands', () => {
    expect(html).toContain('<h1>Summary</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toMatch(/<table style="border-collapse:collapse">/);
    expect(html).toContain('<td align="right" style="border:1px solid #9ca3af;padding:4px 8px;text-align:right">1</td>');
    expect(html).toMatch(/<pre style="[^"]*Consolas[^"]*"><code class="language-ts"[^>]*>const x = 1;\n<\/code><\/pre>/);
    expect(html).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">link</a>');
  });

  it('turns markers into absolute images and links, and titled notes', () => {
    expect(html).toContain('<img src="https://tanya.example/api/v1/files/cat.png" alt="A cat">');
    expect(html).toContain('<a href="https://tanya.example/api/v1/files/q3.pdf">Q3.pdf</a>');
    expect(html).toContain('<strong>The reply reached the token limit</strong></p><p>Ask me to continue.</p>');
    expect(html).toContain('<strong>Searched the web</strong></p><p>Looked at 3 pages.</p>');
  });

  it('never lets raw HTML or unsafe URLs through', () => {
    const out = markdownToHtml('<script>alert(1)</script>\n\nHi <img src=x onerror=alert(1)> [a](javascript:alert(1)) ![b](javascript:x)\n\n::image{url="javascript:alert(2)"}');
    expect(out).not.toMatch(/<script|<img[^>]*onerror|javascript:/i);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('copyMessage', () => {
  class FakeClipboardItem {
    constructor(readonly items: Record<string, Blob>) {}
  }
  afterEach(() => vi.unstubAllGlobals());

  it("copies HTML and plain text together ('rich') when the browser allows it", async () => {
    vi.stubGlobal('ClipboardItem', FakeClipboardItem);
    const write = vi.fn(async (_items: unknown[]) => {});
    const writeText = vi.fn(async (_text: string) => {});
    expect(await copyMessage('**Hi** ::image', { clipboard: { write, writeText }, baseUrl: BASE })).toBe('rich');
    const [item] = write.mock.calls[0][0] as FakeClipboardItem[];
    expect(Object.keys(item.items)).toEqual(['text/html', 'text/plain']);
    expect(await item.items['text/html'].text()).toContain('<strong>Hi</strong>');
    expect(await item.items['text/plain'].text()).toBe('Hi ::image');
    expect(writeText).not.toHaveBeenCalled();
  });

  it("falls back to plain text ('plain') when rich copy is refused or not supported", async () => {
    vi.stubGlobal('ClipboardItem', FakeClipboardItem);
    const writeText = vi.fn(async (_text: string) => {});
    const write = vi.fn(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    expect(await copyMessage('# Title', { clipboard: { write, writeText } })).toBe('plain');
    expect(writeText).toHaveBeenCalledWith('Title');

    vi.unstubAllGlobals(); // no ClipboardItem at all
    expect(await copyMessage('*x*', { clipboard: { write, writeText } })).toBe('plain');
    expect(writeText).toHaveBeenLastCalledWith('x');
  });

  it('throws when nothing could be copied', async () => {
    const fail = async () => {
      throw new Error('no');
    };
    await expect(copyMessage('x', { clipboard: { write: fail, writeText: fail } })).rejects.toThrow();
  });
});
