import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { documentMarker, errorMarker, imageMarker, toolsMarker } from '../../shared/markers';
import { AssistantMarkdown } from '../../src/ui/markdown/assistant-markdown';
import { MessageError } from '../../src/ui/markdown/message-error';
import { UserMessageText } from '../../src/ui/markdown/user-message-text';

const render = (content: string, streaming = false) => renderToStaticMarkup(createElement(AssistantMarkdown, { content, streaming }));

describe('AssistantMarkdown: GitHub-flavoured markdown', () => {
  it('renders a table, strikethrough, a task list and autolinks', () => {
    const html = render('| a | b |\n| --- | --- |\n| 1 | ~~2~~ |\n\n- [x] done\n- [ ] todo\n\nSee https://example.com/docs');
    expect(html).toMatch(/<table>.*<th>a<\/th>.*<td>1<\/td>.*<\/table>/s);
    expect(html).toContain('<del>2</del>');
    expect(html).toMatch(/<input type="checkbox" disabled="" checked=""\/> done/);
    expect(html).toContain('href="https://example.com/docs"');
  });

  it('renders headings, lists and inline code', () => {
    const html = render('## Title\n\n1. one\n2. two\n\nUse `npm ci`.');
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toMatch(/<ol>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ol>/);
    expect(html).toContain('<code>npm ci</code>');
  });
});

describe('AssistantMarkdown: safety', () => {
  it('never turns raw HTML into elements: it shows as text', () => {
    const html = render('Hi <script>alert(1)</script> and <img src=x onerror=alert(1)>\n\n<div onclick="x()">block</div>\n\n<iframe src="https://evil.example"></iframe>');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/<div onclick/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('drops javascript:, data: and vbscript: URLs from links, images and markers', () => {
    const html = render(
      [
        '[click](javascript:alert(1)) [two](JAVASCRIPT:alert(2)) [three](data:text/html,<b>x</b>) [four](vbscript:x)',
        '![pic](javascript:alert(3))',
        '::image{url="javascript:alert(4)" alt="x"}',
        '::document{url="javascript:alert(5)" name="evil.pdf"}',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/javascript:|data:text|vbscript:/i);
    expect(html).toContain('<span>click</span>');
    expect(html).toContain('evil.pdf');
    expect(html).not.toMatch(/<a [^>]*download/);
  });

  it('opens links in a new tab without an opener, keeps http(s), mailto and relative URLs', () => {
    const html = render('[a](https://example.com) [b](/chat/1) [c](mailto:help@example.com)');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">a</a>');
    expect(html).toContain('<a href="/chat/1" target="_blank" rel="noopener noreferrer">b</a>');
    expect(html).toContain('<a href="mailto:help@example.com">c</a>');
  });

  it('keeps unknown directives and colons in prose as written', () => {
    const html = render('Note:this, ratio 3:2, see :abbr[HTML]\n\n::unknown{a="1"}\n\n:::aside\ninside\n:::');
    expect(html).toContain('Note:this, ratio 3:2, see :abbr[HTML]');
    expect(html).toContain('::unknown{a=&quot;1&quot;}');
    expect(html).toContain(':::aside');
    expect(html).toContain('inside');
  });
});

describe('AssistantMarkdown: markers', () => {
  it('renders an image marker as a lazy image that opens full size', () => {
    const html = render(imageMarker('/api/v1/files/cat.png', 'A cat'));
    expect(html).toMatch(/<button[^>]*aria-label="Open image full size: A cat"/);
    expect(html).toMatch(/<img src="\/api\/v1\/files\/cat.png" alt="A cat" loading="lazy"/);
  });

  it('shows the spec error text for an image marker without a usable URL', () => {
    expect(render('::image{alt="nothing"}')).toContain('Failed to load generated image');
  });

  it('renders a document marker as a download link with its name', () => {
    const html = render(documentMarker('/api/v1/files/report.pdf', 'Q3 report.pdf'));
    expect(html).toMatch(/<a href="\/api\/v1\/files\/report.pdf" download="Q3 report.pdf"[^>]*>.*Q3 report.pdf.*<\/a>/s);
    expect(html).toContain('lucide-file-text');
    // Without a name, the file name from the URL.
    expect(render('::document{url="/api/v1/files/a%20b.docx"}')).toContain('download="a b.docx"');
  });

  it('renders an error marker: llm by default, max-tokens when given, with its text and no alert role', () => {
    const llm = render(':::error\nThe provider timed out.\n:::');
    expect(llm).toContain('data-error-type="llm"');
    expect(llm).toContain('The model could not answer');
    expect(llm).toContain('The provider timed out.');
    const cut = render(errorMarker('max-tokens', 'Ask me to continue.'));
    expect(cut).toContain('data-error-type="max-tokens"');
    expect(cut).toContain('The reply reached the token limit');
    expect(cut).toContain('Ask me to continue.');
    expect(llm + cut).not.toContain('role="alert"');
    expect(render(':::error{type="weird"}\nx\n:::')).toContain('data-error-type="llm"');
  });

  it('renders a tools marker as a collapsed disclosure named by its label', () => {
    const html = render(toolsMarker('Searched 3 pages.', 'Searched the web'));
    expect(html).toMatch(/<button[^>]*aria-expanded="false"[^>]*>.*Searched the web.*<\/button>/s);
    expect(html).toContain('Searched 3 pages.');
    expect(html).toMatch(/hidden=""/);
    expect(render(toolsMarker('x'))).toContain('Tools used');
  });

  it('MessageError can be used on its own', () => {
    const html = renderToStaticMarkup(createElement(MessageError, { type: 'max-tokens' }, 'Cut.'));
    expect(html).toContain('The reply reached the token limit');
    expect(html).toContain('Cut.');
  });
});

describe('AssistantMarkdown: code blocks', () => {
  it('renders a header with the language and a Copy button, then the plain code', () => {
    const html = render('```ts\nconst a = 1;\n\nconst b = a < 2;\n```');
    expect(html).toMatch(/<span class="font-mono">ts<\/span>/);
    expect(html).toMatch(/<button[^>]*aria-label="Copy code"[^>]*>.*Copy<\/button>/s);
    expect(html).toContain('<code class="font-mono language-ts">const a = 1;\n\nconst b = a &lt; 2;</code>');
  });

  it('labels a fence without a language as text', () => {
    expect(render('```\nplain\n```')).toMatch(/<span class="font-mono">text<\/span>/);
  });

  it('renders an unclosed fence while streaming', () => {
    const html = render('Here:\n\n```py\nprint(1)\n\n', true);
    expect(html).toContain('<p>Here:</p>');
    expect(html).toContain('language-py');
    expect(html).toContain('print(1)');
  });

  it('shows the open block as it will read once its closing markers arrive', () => {
    const html = render('Done.\n\nThis is **very imp', true);
    expect(html).toContain('<strong>very imp</strong>');
    expect(html).not.toContain('**');
    expect(render('Run `npm c', true)).toContain('<code>npm c</code>');
    expect(render('Try ~~this', true)).toContain('<del>this</del>');
    // A link whose address is still coming is its text; the finished one is a link.
    const link = render('See [the policy](https://intranet.exa', true);
    expect(link).toContain('the policy');
    expect(link).not.toMatch(/<a |\[the policy\]|intranet/);
    // Finished blocks and a finished reply are left as written.
    expect(render('Price **5\n\nNext', true)).toContain('<p>Price **5</p>');
    expect(render('This is **very imp')).toContain('This is **very imp');
  });

  it('leaves a streaming marker block, a list with > and a single tilde as the finished reply shows them', () => {
    const marker = imageMarker('/api/v1/files/_abc_def', 'A *chart');
    expect(render(marker, true)).toBe(render(marker));
    expect(render('- > 25 items', true)).toBe(render('- > 25 items'));
    expect(render('From 20~25 degrees', true)).toBe(render('From 20~25 degrees'));
  });

  it('renders the same split into blocks (while streaming) as parsed whole (a finished reply)', () => {
    const reply = '# T\n\npara[^1]\n\n- a\n\n- b\n\n```js\nx\n\ny\n```\n\n| a |\n|---|\n| 1 |\n\n[^1]: A note.';
    const blockwise = render(reply, true);
    expect(blockwise.match(/<li/g)).toHaveLength(3); // the two items and the footnote
    expect(blockwise.match(/<pre/g)).toHaveLength(1);
    expect(blockwise).toContain('x\n\ny');
    expect(blockwise).toContain('A note.');
    // The whole parse keeps the line breaks between blocks as text (collapsed white space on screen), and
    // react-aria numbers its ids per render.
    const same = (html: string) => html.replace(/>\n</g, '><').replace(/ id="react-aria-[^"]*"/g, '');
    expect(same(render(reply))).toBe(same(blockwise));
  });
});

describe('UserMessageText', () => {
  it('shows the text as typed: escaped, no markdown, whitespace kept', () => {
    const html = renderToStaticMarkup(createElement(UserMessageText, { text: '<b>hi</b> **not bold**\n  indented' }));
    expect(html).toBe('<div class="whitespace-pre-wrap break-words">&lt;b&gt;hi&lt;/b&gt; **not bold**\n  indented</div>');
  });
});
