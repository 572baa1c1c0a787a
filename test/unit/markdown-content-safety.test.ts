import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/api-paths';
import { documentMarker, imageMarker, isOwnFileUrl, OWN_FILE_PATHS } from '../../shared/markers';
import { AssistantMarkdown } from '../../src/ui/markdown/assistant-markdown';
import { markdownToHtml, markdownToPlainText } from '../../src/ui/markdown/copy-message';
import { MarkdownDocument } from '../../src/ui/markdown/markdown-document';
import { MarkdownImage } from '../../src/ui/markdown/markdown-image';

const render = (content: string) => renderToStaticMarkup(createElement(AssistantMarkdown, { content }));
const EVIL = 'https://evil.example/track.png';

describe('isOwnFileUrl: only the server own file URLs', () => {
  const scope = { origin: 'https://tanya.example', basePath: '/' };

  it('accepts root-relative and same-origin URLs under the API file paths', () => {
    expect(isOwnFileUrl('/api/v1/files/cat.png', scope)).toBe(true);
    expect(isOwnFileUrl('/api/v1/documents/9/download?x=1', scope)).toBe(true);
    expect(isOwnFileUrl('https://tanya.example/api/v1/files/cat.png', scope)).toBe(true);
    // Without a known origin, root-relative ones still are, and nothing else.
    expect(isOwnFileUrl('/api/v1/files/cat.png')).toBe(true);
    expect(isOwnFileUrl('https://tanya.example/api/v1/files/cat.png')).toBe(false);
    expect(isOwnFileUrl('//tanya.example/api/v1/files/cat.png')).toBe(false);
  });

  it('refuses other origins, however they are written', () => {
    for (const url of [
      EVIL,
      'https://evil.example/api/v1/files/cat.png',
      '//evil.example/api/v1/files/cat.png',
      '/\\evil.example/api/v1/files/cat.png',
      '/\t/evil.example/api/v1/files/cat.png',
      'https://tanya.example@evil.example/api/v1/files/cat.png',
      'https://user:secret@tanya.example/api/v1/files/cat.png',
      'http://tanya.example/api/v1/files/cat.png',
      'https://tanya.example:8443/api/v1/files/cat.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
    ]) {
      expect(isOwnFileUrl(url, scope), url).toBe(false);
    }
  });

  it('refuses other paths of our origin, path-relative URLs and escapes out of the file paths', () => {
    for (const url of [
      '/api/v1/users/me',
      '/files/cat.png',
      'api/v1/files/cat.png',
      '/api/v1/files/../users/me',
      '/api/v1/files/%2e%2e/users/me',
      '/api/v1/filesystem/x',
      '',
      '   ',
    ]) {
      expect(isOwnFileUrl(url, scope), url).toBe(false);
    }
  });

  it('follows the path the app is served under', () => {
    const under = { origin: 'https://tanya.example', basePath: '/tanya/' };
    expect(isOwnFileUrl('/tanya/api/v1/files/cat.png', under)).toBe(true);
    expect(isOwnFileUrl('https://tanya.example/tanya/api/v1/files/cat.png', under)).toBe(true);
    expect(isOwnFileUrl('/api/v1/files/cat.png', under)).toBe(false);
  });
});

describe('AssistantMarkdown: images and documents from elsewhere are plain links', () => {
  it('renders a foreign image marker as a link, never an image', () => {
    const html = render(imageMarker(EVIL, 'A cat'));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('Open image full size');
    expect(html).toContain(`<a href="${EVIL}" target="_blank" rel="noopener noreferrer">A cat</a>`);
  });

  it('renders a foreign document marker as a link, never a download card', () => {
    const html = render(documentMarker('https://evil.example/payroll.xlsx', 'Payroll.xlsx'));
    expect(html).not.toContain('download=');
    expect(html).not.toContain('lucide-file-text');
    expect(html).toContain('<a href="https://evil.example/payroll.xlsx" target="_blank" rel="noopener noreferrer">Payroll.xlsx</a>');
  });

  it('shows the URL as the link text when the marker has no alt text, and handles inline markers', () => {
    expect(render(`::image{url="${EVIL}"}`)).toContain(`>${EVIL}</a>`);
    const inline = render(`See :image{url="${EVIL}" alt="this"} now`);
    expect(inline).toContain(`<p>See <a href="${EVIL}" target="_blank" rel="noopener noreferrer">this</a> now</p>`);
  });

  it('renders a foreign markdown image as a link to it (no tracking pixel), keeps our own as an image', () => {
    // (A reference resolves only inside its own block, see src/lib/markdown-blocks.ts: the definition goes first.)
    const html = render(`[r]: https://evil.example/ref.png\n![x](${EVIL}) and ![ref][r]`);
    expect(html).not.toContain('<img');
    expect(html).toContain(`<a href="${EVIL}" target="_blank" rel="noopener noreferrer">x</a>`);
    expect(html).toContain('<a href="https://evil.example/ref.png" target="_blank" rel="noopener noreferrer">ref</a>');
    expect(render('![chart](/api/v1/files/chart.png)')).toContain('<img src="/api/v1/files/chart.png" alt="chart"');
  });

  it('keeps only the words of a foreign image inside a link (links do not nest)', () => {
    const html = render(`[![badge](${EVIL})](https://example.com)`);
    expect(html).not.toContain('<img');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">badge</a>');
  });

  it('still renders our own image and document markers as an image and a download card', () => {
    expect(render(imageMarker('/api/v1/files/cat.png', 'A cat'))).toMatch(/<img src="\/api\/v1\/files\/cat.png"/);
    expect(render(documentMarker('/api/v1/documents/7', 'Q3.pdf'))).toContain('download="Q3.pdf"');
  });

  it('MarkdownImage and MarkdownDocument refuse a foreign URL on their own too', () => {
    const image = renderToStaticMarkup(createElement(MarkdownImage, { url: EVIL, alt: 'x' }));
    expect(image).not.toContain('<img');
    const document = renderToStaticMarkup(createElement(MarkdownDocument, { url: 'https://evil.example/a.pdf', name: 'a.pdf' }));
    expect(document).not.toContain('href=');
  });
});

describe('copying a message: foreign images and markers are links there too', () => {
  const base = 'https://tanya.example/chat/42';
  const reply = [imageMarker(EVIL, 'A cat'), documentMarker('https://evil.example/a.pdf', 'a.pdf'), `![x](${EVIL})`].join('\n\n');

  it('gives HTML without any foreign image', () => {
    const html = markdownToHtml(reply, { baseUrl: base });
    expect(html).not.toContain('<img');
    expect(html).toContain(`<a href="${EVIL}" target="_blank" rel="noopener noreferrer">A cat</a>`);
    expect(html).toContain('<a href="https://evil.example/a.pdf" target="_blank" rel="noopener noreferrer">a.pdf</a>');
    expect(html).toContain(`<a href="${EVIL}" target="_blank" rel="noopener noreferrer">x</a>`);
  });

  it('gives plain text with the links written out, and own absolute URLs of the page still images', () => {
    expect(markdownToPlainText(reply, { baseUrl: base })).toBe(`A cat (${EVIL})\n\na.pdf (https://evil.example/a.pdf)\n\nx (${EVIL})`);
    const own = markdownToHtml(imageMarker('https://tanya.example/api/v1/files/cat.png', 'cat'), { baseUrl: base });
    expect(own).toContain('<img src="https://tanya.example/api/v1/files/cat.png" alt="cat">');
  });
});

describe('own file paths', () => {
  it('sit under the API prefix of contract/api-paths.ts', () => {
    expect(OWN_FILE_PATHS.every((p) => p.startsWith(`${API_PREFIX}/`))).toBe(true);
  });
});
