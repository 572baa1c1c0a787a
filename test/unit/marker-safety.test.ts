import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { documentMarker, errorMarker, imageMarker, toolsMarker } from '../../shared/markers';
import { neutraliseForeignMarkers } from '../../server/services/chat/marker-safety';
import { AssistantMarkdown } from '../../src/ui/markdown/assistant-markdown';

const PUBLIC_URL = 'https://tanya.example';
const EVIL = 'https://evil.example/track.png';
const neutralise = (text: string, publicUrl = PUBLIC_URL) => neutraliseForeignMarkers(text, publicUrl);
const render = (content: string) => renderToStaticMarkup(createElement(AssistantMarkdown, { content }));

describe('neutraliseForeignMarkers (server)', () => {
  it('returns text without foreign markers or images unchanged', () => {
    const text = [
      '# Report',
      'Plain **text** with a [link](https://example.com) and ratio 3:2.',
      imageMarker('/api/v1/files/cat.png', 'A cat'),
      documentMarker(`${PUBLIC_URL}/api/v1/documents/7`, 'Q3.pdf'),
      '![chart](/api/v1/files/chart.png)',
      errorMarker('max-tokens', 'Ask me to continue.'),
      toolsMarker('Searched.', 'Searched the web'),
    ].join('\n\n');
    expect(neutralise(text)).toBe(text);
  });

  it('turns a foreign image or document marker into a plain link with its label', () => {
    expect(neutralise(`Look:\n\n${imageMarker(EVIL, 'A cat')}\n\nDone.`)).toBe(`Look:\n\n[A cat](<${EVIL}>)\n\nDone.`);
    expect(neutralise(documentMarker('https://evil.example/payroll.xlsx', 'Payroll.xlsx'))).toBe(
      '[Payroll\\.xlsx](<https://evil.example/payroll.xlsx>)',
    );
    expect(neutralise(`::image{url="${EVIL}"}`)).toBe(`[https\\:\\/\\/evil\\.example\\/track\\.png](<${EVIL}>)`);
    expect(neutralise(`See :image{url="${EVIL}" alt="this"} now`)).toBe(`See [this](<${EVIL}>) now`);
  });

  it('judges absolute URLs of our own origin by PUBLIC_URL, and root-relative ones as ours', () => {
    const own = imageMarker('https://tanya.example/api/v1/files/cat.png', 'cat');
    expect(neutralise(own)).toBe(own);
    expect(neutralise(own, 'https://other.example')).toBe('[cat](<https://tanya.example/api/v1/files/cat.png>)');
    expect(neutraliseForeignMarkers(imageMarker('/api/v1/files/cat.png'))).toBe(imageMarker('/api/v1/files/cat.png'));
    // Served under a path: only that path's files are ours.
    expect(neutralise(imageMarker('/tanya/api/v1/files/a.png'), 'https://tanya.example/tanya')).toBe(imageMarker('/tanya/api/v1/files/a.png'));
  });

  it('keeps only the label of a marker with an unsafe URL', () => {
    expect(neutralise(imageMarker('javascript:alert(1)', 'x'))).toBe('x');
  });

  it('makes a foreign markdown image a link (and only its words inside a link)', () => {
    expect(neutralise(`Pixel ![x](${EVIL}) here`)).toBe(`Pixel [x](${EVIL}) here`);
    expect(neutralise(`![r][ref]\n\n[ref]: ${EVIL}`)).toBe(`[r][ref]\n\n[ref]: ${EVIL}`);
    expect(neutralise(`[![badge](${EVIL})](https://example.com)`)).toBe('[badge](https://example.com)');
  });

  it('leaves markers written inside code alone', () => {
    const text = `Write it like this:\n\n\`\`\`md\n${imageMarker(EVIL, 'x')}\n![y](${EVIL})\n\`\`\`\n\nor \`![z](${EVIL})\`.`;
    expect(neutralise(text)).toBe(text);
  });

  it('gives text the renderer shows without any foreign image or download card', () => {
    const html = render(neutralise([imageMarker(EVIL, 'A cat'), documentMarker('https://evil.example/a.pdf', 'a.pdf'), `![x](${EVIL})`].join('\n\n')));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('download=');
    expect(html).toContain(`<a href="${EVIL}" target="_blank" rel="noopener noreferrer">A cat</a>`);
    expect(html).toContain('<a href="https://evil.example/a.pdf" target="_blank" rel="noopener noreferrer">a.pdf</a>');
  });
});
