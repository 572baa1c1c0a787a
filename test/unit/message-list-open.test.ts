import { Virtualizer } from '@tanstack/virtual-core';
import { describe, expect, it } from 'vitest';
import { estimateMessageHeight, FIRST_PAINT_OVERSCAN, openAtEnd } from '../../src/features/chat/message-list';

// What the message list's first render holds, before its scroller exists: the virtualizer with the list's own
// start options and no scroll element yet (as on the render before React has attached it).
function firstRender(contents: string[], viewportHeight: number) {
  const virtualizer = new Virtualizer<HTMLDivElement, HTMLDivElement>({
    count: contents.length,
    getScrollElement: () => null,
    estimateSize: (i) => estimateMessageHeight(contents[i]!),
    scrollToFn: () => {},
    observeElementRect: () => {},
    observeElementOffset: () => {},
    overscan: FIRST_PAINT_OVERSCAN,
    ...openAtEnd(contents.map((content) => ({ content })), viewportHeight),
  });
  return virtualizer.getVirtualItems().map((row) => row.index);
}

const page = (n: number, paragraphs: number) => Array.from({ length: n }, (_, i) => `Message ${i + 1}\n\n${'Some words of text. '.repeat(20 * paragraphs)}`);

describe('message list: opening a conversation', () => {
  it('lays out only the last messages, as many as fill the window, on its first render', () => {
    const contents = page(50, 2);
    const drawn = firstRender(contents, 800);
    expect(drawn).toContain(49);
    expect(Math.min(...drawn)).toBeGreaterThan(40);
    const height = drawn.reduce((sum, i) => sum + estimateMessageHeight(contents[i]!), 0);
    expect(height).toBeGreaterThanOrEqual(800);
  });

  it('draws every message of a short conversation', () => {
    expect(firstRender(page(3, 1), 800)).toEqual([0, 1, 2]);
  });

  it('draws nothing for an empty one', () => {
    expect(firstRender([], 800)).toEqual([]);
  });
});
