import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../src/ui/markdown/copy-message';
import { createBlockSplitter, splitMarkdownBlocks } from '../../src/lib/markdown-blocks';

const fence = '```';

/** A reply with every construct the splitter must respect. */
const DOC = [
  '# Heading',
  'A paragraph with **bold** text\nand a second line.',
  `${fence}js\nconst a = 1;\n\n\nconst b = 2; // blank lines above\n${fence}`,
  '- one\n- two',
  '1. first\n\n2. second, loose\n\n   still the second item\n\n3. third',
  '| a | b |\n| --- | --- |\n| 1 | ~~2~~ |',
  ':::tools{label="Searched the web"}\nFound:\n\n- a page\n:::',
  ':::error{type="max-tokens"}\nCut short.\n:::',
  '::image{url="/api/v1/files/cat.png" alt="A cat"}',
  '> a quote\n> two lines',
  '    indented code\n\n    after a blank line',
  `~~~~md\n${fence}\n\nnot a closing fence\n~~~\n~~~~`,
  'The end.',
].join('\n\n');

describe('splitMarkdownBlocks', () => {
  it('splits paragraphs on blank lines and drops the blank lines', () => {
    expect(splitMarkdownBlocks('a\n\nb\n\n\n\nc\n')).toEqual(['a', 'b', 'c']);
    expect(splitMarkdownBlocks('one\ntwo\n  \nthree')).toEqual(['one\ntwo', 'three']);
    expect(splitMarkdownBlocks('\n\n')).toEqual([]);
  });

  it('keeps a fenced code block with blank lines together', () => {
    const code = `${fence}py\nx = 1\n\n\ny = 2\n${fence}`;
    expect(splitMarkdownBlocks(`intro\n\n${code}\n\nafter`)).toEqual(['intro', code, 'after']);
  });

  it('closes a fence only with the same character and at least the same length', () => {
    const code = `~~~~md\n${fence}\n\ninside\n~~~\n\nstill inside\n~~~~`;
    expect(splitMarkdownBlocks(`${code}\n\nafter`)).toEqual([code, 'after']);
  });

  it('does not open a fence for inline code written with three backticks', () => {
    expect(splitMarkdownBlocks('Use ```a``` here\n\nnext')).toEqual(['Use ```a``` here', 'next']);
  });

  it('keeps list items together across blank lines, with their indented continuations', () => {
    const list = '- one\n\n- two\n\n  more of two\n\n  ```\n  code\n\n  more code\n  ```\n- three';
    expect(splitMarkdownBlocks(`${list}\n\nAfter the list.`)).toEqual([list, 'After the list.']);
    expect(splitMarkdownBlocks('1. a\n\n2. b\n\n10. c')).toEqual(['1. a\n\n2. b\n\n10. c']);
  });

  it('keeps a fence opened on a list item line together', () => {
    const list = '- ```js\n  a();\n\n  b();\n  ```\n- next';
    expect(splitMarkdownBlocks(`${list}\n\nend`)).toEqual([list, 'end']);
  });

  it('keeps a table in one block', () => {
    const table = '| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |';
    expect(splitMarkdownBlocks(`${table}\n\npara`)).toEqual([table, 'para']);
  });

  it('keeps a container marker with blank lines (and code with blank lines inside it) together', () => {
    const tools = `:::tools{label="x"}\nline\n\n${fence}\na\n\nb\n${fence}\n\nline 2\n:::`;
    expect(splitMarkdownBlocks(`${tools}\n\nafter`)).toEqual([tools, 'after']);
    // As in micromark, the container's closing fence ends it even inside code: the code after is a new block.
    expect(splitMarkdownBlocks(`:::tools\n${fence}\n:::\n\n${fence}`)).toEqual([`:::tools\n${fence}\n:::`, fence]);
    const nested = '::::tools\n:::error\nin\n\nner\n:::\n\nouter\n::::';
    expect(splitMarkdownBlocks(`${nested}\n\nafter`)).toEqual([nested, 'after']);
  });

  it('keeps an unclosed fence open to the end (a streaming reply)', () => {
    const blocks = splitMarkdownBlocks(`p\n\n${fence}py\nx = 1\n\n\ny`);
    expect(blocks).toEqual(['p', `${fence}py\nx = 1\n\n\ny`]);
  });

  it('never changes what the markdown means: the blocks render to the same HTML as the whole text', () => {
    const blocks = splitMarkdownBlocks(DOC);
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    const squash = (html: string) => html.replace(/>\s+</g, '><');
    expect(squash(blocks.map((b) => markdownToHtml(`${b}\n`)).join(''))).toBe(squash(markdownToHtml(`${DOC}\n`)));
  });

  it('keeps the meaning of random mixes of lists, fences, markers, tables, quotes and HTML blocks', () => {
    const pieces = [
      'para text', 'x', '- a', '- b', '1. one', '2) two', '  indented 2', '    indented 4', '```', '```js', '~~~', '````',
      ':::tools', ':::error{type="max-tokens"}', ':::', '::::', '> q', '| a | b |', '|---|---|', '| 1 | 2 |', '', '', '',
      '***', '---', '# h', '   - deep', '  ```', '- ```js', '<div>', '</div>', '<details>', '<pre>', '</pre>',
    ];
    let seed = 2;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    const squash = (html: string) => html.replace(/\s+/g, '');
    for (let i = 0; i < 400; i++) {
      const lines = Array.from({ length: 3 + Math.floor(random() * 30) }, () => pieces[Math.floor(random() * pieces.length)]);
      const doc = lines.join('\n');
      const split = splitMarkdownBlocks(doc).map((b) => markdownToHtml(`${b}\n`)).join('');
      expect(squash(split), JSON.stringify(doc)).toBe(squash(markdownToHtml(`${doc}\n`)));
    }
  });
});

describe('createBlockSplitter (streaming)', () => {
  it('gives the same blocks as a full split at every step of a growing text', () => {
    const split = createBlockSplitter();
    for (let end = 0; end <= DOC.length; end += 1) {
      const text = DOC.slice(0, end);
      expect(split(text), `at ${end} characters`).toEqual(splitMarkdownBlocks(text));
    }
  });

  it('changes only the last block as the text grows: finished blocks stay the same strings', () => {
    const reply = [
      'First paragraph of the reply.',
      `${fence}ts\nconst x = 1;\n\nconst y = 2;\n${fence}`,
      'A second paragraph.\nWith two lines.',
      '| a | b |\n|---|---|\n| 1 | 2 |',
      'Last words.',
    ].join('\n\n');
    const split = createBlockSplitter();
    let previous: string[] = [];
    for (let end = 1; end <= reply.length; end += 3) {
      const blocks = split(reply.slice(0, end));
      for (let i = 0; i < previous.length - 1; i++) expect(blocks[i], `block ${i} at ${end}`).toBe(previous[i]);
      previous = blocks;
    }
    expect(split(reply)).toHaveLength(5);
  });

  it('starts over when the text is replaced rather than extended', () => {
    const split = createBlockSplitter();
    expect(split('a\n\nb\n\nc')).toEqual(['a', 'b', 'c']);
    expect(split('x\n\ny')).toEqual(['x', 'y']);
    expect(split('x\n\ny\n\n- 1\n\n- 2')).toEqual(['x', 'y', '- 1\n\n- 2']);
  });
});
