import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { errorMarker } from '../../shared/markers';
import type { ChatMessage } from '../../contract/chat';
import { CONNECTION_FAILED_TITLE, SEND_REQUEST_FAILED, SEND_STREAM_FAILED } from '../../machines/chat-send.machine';
import { MessageItem } from '../../src/features/chat/message-item';
import { ERROR_MARKER_TITLES } from '../../src/ui/markdown/remark-markers';

// A reply the model failed to write (the server's error marker) and one lost to the network (the chat-send
// machine's sentence) are shown alike: the same error box in the reply, saying what happened.

const reply = (content: string): ChatMessage => ({
  id: 'a1',
  conversation_id: 'c1',
  content,
  sender: 'Assistant',
  status: 'error',
  created_at: '2026-11-28T03:00:00.000Z',
  stopped: false,
});

const render = (content: string) =>
  renderToStaticMarkup(createElement(MessageItem, { message: reply(content), isBusy: false, onEdit: () => {}, onSavePrompt: () => {}, onRegenerate: () => {} }));

/** The error box's opening tag (its element and classes) and its title. */
function errorBox(html: string) {
  const open = /<div data-error-type="[^"]+" class="[^"]+">/.exec(html)?.[0] ?? null;
  const title = /<p class="m-0! font-semibold">([^<]*)<\/p>/.exec(html)?.[1] ?? null;
  return { open, title };
}

describe('a failed reply looks the same whatever failed', () => {
  const model = errorBox(render(errorMarker('llm', 'The model is unavailable')));

  it.each([
    ['the request could not be made', SEND_REQUEST_FAILED],
    ['the stream broke', SEND_STREAM_FAILED],
  ])('a reply lost because %s is in the same error box as a model failure, saying so', (_, sentence) => {
    const html = render(sentence);
    const network = errorBox(html);
    expect(model.open).not.toBeNull();
    expect(network.open).toBe(model.open);
    expect(model.title).toBe(ERROR_MARKER_TITLES.llm);
    expect(network.title).toBe(CONNECTION_FAILED_TITLE);
    expect(html).toContain(sentence.replace(/'/g, '&#x27;'));
    // The way on is offered alike (Regenerate where the conversation allows it).
    expect(html).toContain('aria-label="Regenerate reply"');
  });

  it('a complete reply that happens to quote the sentence is not shown as a failure', () => {
    const html = renderToStaticMarkup(
      createElement(MessageItem, { message: { ...reply(SEND_REQUEST_FAILED), status: 'complete' }, isBusy: false, onEdit: () => {}, onSavePrompt: () => {} }),
    );
    expect(errorBox(html).open).toBeNull();
  });
});
