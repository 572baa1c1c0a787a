import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { joinFootnoteBlocks, splitMarkdownBlocks } from '../../src/lib/markdown-blocks';
import { AssistantMarkdown } from '../../src/ui/markdown/assistant-markdown';
import { markdownToHtml, markdownToPlainText } from '../../src/ui/markdown/copy-message';

const render = (content: string, streaming = false) => renderToStaticMarkup(createElement(AssistantMarkdown, { content, streaming }));

const REPLY = 'Budgets are set yearly[^1] and reviewed monthly[^review].\n\nMore text, again[^1].\n\n[^review]: By the finance team.\n\n[^1]: Each January.';

const textOf = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();

/** What a reader sees of the footnotes: reference numbers, the label, the notes and their back-links. */
function footnotes(html: string) {
  const refs = [...html.matchAll(/<sup><a [^>]*data-footnote-ref[^>]*>([^<]*)<\/a><\/sup>/g)].map((m) => m[1]);
  const section = /<section[^>]*data-footnotes[^>]*>([\s\S]*)<\/section>/.exec(html)?.[1] ?? '';
  const label = /<(\w+)[^>]*id="[^"]*footnote-label"[^>]*>([^<]*)<\/\1>/.exec(section);
  const notes = [...section.matchAll(/<li [^>]*>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]));
  const backLinks = [...section.matchAll(/<a [^>]*aria-label="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => `${m[1]}: ${textOf(m[2])}`);
  return { refs, labelTag: label?.[1], label: label?.[2], labelHidden: /sr-only/.test(label?.[0] ?? ''), notes, backLinks };
}

/** Every id in the HTML, and every in-page link target. */
const ids = (html: string) => [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
const targets = (html: string) => [...html.matchAll(/ href="#([^"]+)"/g)].map((m) => m[1]);
const describedBy = (html: string) => [...html.matchAll(/ aria-describedby="([^"]+)"/g)].map((m) => m[1]);

describe('footnotes: on screen as when copied', () => {
  it('numbers references, shows the label, the notes and their back-links on screen', () => {
    const screen = footnotes(render(REPLY));
    expect(screen.refs).toEqual(['1', '2', '1']);
    expect(screen.label).toBe('Footnotes');
    expect(screen.labelHidden).toBe(false);
    expect(screen.notes).toEqual(['Each January. ↩ ↩2', 'By the finance team. ↩']);
    expect(screen.backLinks).toEqual(['Back to reference 1: ↩', 'Back to reference 1-2: ↩2', 'Back to reference 2: ↩']);
  });

  it('renders them on screen exactly as the copied HTML does', () => {
    expect(footnotes(render(REPLY))).toEqual(footnotes(markdownToHtml(REPLY)));
  });

  it('copies them as plain text with the same numbers and label, the notes at the end', () => {
    expect(markdownToPlainText(REPLY)).toBe(
      [
        'Budgets are set yearly[1] and reviewed monthly[2].',
        'More text, again[1].',
        'Footnotes\n1. Each January.\n2. By the finance team.',
      ].join('\n\n'),
    );
    // A note nobody refers to is left out, on screen and in a copy.
    expect(markdownToPlainText('Text[^a].\n\n[^a]: Used.\n\n[^b]: Unused.')).toBe('Text[1].\n\nFootnotes\n1. Used.');
    expect(render('Text[^a].\n\n[^a]: Used.\n\n[^b]: Unused.')).not.toContain('Unused');
  });

  it('gives each message on one screen its own ids, and every link stays inside its message', () => {
    const one = 'First[^1].\n\n[^1]: One.';
    const two = 'Second[^1].\n\n[^1]: Two.';
    const html = renderToStaticMarkup(
      createElement(Fragment, null, createElement(AssistantMarkdown, { content: one }), createElement(AssistantMarkdown, { content: two })),
    );
    const all = ids(html);
    expect(all.length).toBe(6); // per message: the reference, the label, the note
    expect(new Set(all).size).toBe(all.length);
    for (const target of [...targets(html), ...describedBy(html)]) expect(all).toContain(target);
    // And inside each message the links point to its own note.
    const [first, second] = html.split('</section>');
    for (const target of targets(first)) expect(ids(first)).toContain(target);
    for (const target of targets(second)) expect(ids(second)).toContain(target);
  });

  it('renders footnotes while a reply streams, once the note has arrived', () => {
    expect(footnotes(render('Yearly[^1].\n\nMore.\n\n[^1]: Each', true)).notes).toEqual(['Each ↩']);
  });
});

describe('joinFootnoteBlocks', () => {
  it('keeps the blocks of a reply without footnotes', () => {
    const blocks = splitMarkdownBlocks('a\n\nb [^x] in prose\n\nc');
    expect(joinFootnoteBlocks(blocks)).toBe(blocks);
  });

  it('joins the blocks from the first reference to the end when a footnote is defined', () => {
    const blocks = splitMarkdownBlocks('intro\n\nsee[^1]\n\nmore\n\n[^1]: note');
    expect(joinFootnoteBlocks(blocks)).toEqual(['intro', 'see[^1]\n\nmore\n\n[^1]: note']);
  });
});
