import { imageMarker } from '../../../../shared/markers';
import type { AppContext } from '../../../context';
import type { UserRecord } from '../../../db/repositories/users';
import type { ChatChunk, ChatTurn } from '../../../llm/types';
import { fileKeyUrl, storeConversationFile } from '../../documents/documents';
import type { ModelCall } from '../model-call';
import { countTurnTokens } from '../usage';
import { generateImage } from './image-model';
import { cut, oneLine } from './web-pages';

export const IMAGE_READY = 'Here is the image you asked for.';
export const DEMO_IMAGE_NOTICE = 'This is a demo image: no image model is configured on this server.';
/** The image marker's alt text: the request, shortened. */
const ALT_MAX_CHARS = 120;
/** dall-e-3 takes prompts of up to 4,000 characters (gpt-image-1 more); the start of a long question is kept. */
const IMAGE_PROMPT_MAX_CHARS = 4_000;

/** An image request under way; it answers like a model call (reply text, then a finish), so chat-stream.ts writes it. */
export interface ImageCall extends ModelCall {
  /**
   * Where the image goes, once the exchange is saved. The image is asked for before that (like a chat model's
   * reply, so the question is saved while the model works), but a new chat's conversation only exists after the
   * save: the image is stored, as that conversation's file, once both the image and this are there.
   */
  storeIn(conversationId: string): void;
}

/** Asks for the image now (an image request's reply is the image, not a chat completion). */
export function callImageModel(ctx: AppContext, user: UserRecord, question: string): ImageCall {
  const controller = new AbortController();
  const signal = AbortSignal.any([ctx.closing, controller.signal]);
  const startedAt = performance.now();
  // What the image model is sent: the question alone (its tokens count as the prompt when no usage is reported).
  const prompt: ChatTurn[] = [{ role: 'user', content: question }];
  const generation = generateImage(ctx.config.tools.images, cut(question, IMAGE_PROMPT_MAX_CHARS), { signal, allowHosts: ctx.config.tools.webFetchAllowHosts });
  generation.catch(() => undefined);

  let storeIn!: (conversationId: string) => void;
  let cancelled!: (reason: Error) => void;
  const target = new Promise<string>((resolve, reject) => {
    storeIn = resolve;
    cancelled = reject;
  });
  target.catch(() => undefined);

  async function* reply(): AsyncGenerator<ChatChunk> {
    const image = await generation;
    const conversationId = await target;
    signal.throwIfAborted();
    const file = await storeConversationFile(ctx, user, {
      conversationId,
      filename: `generated-image${image.extension}`,
      extension: image.extension,
      mime: image.mime,
      bytes: image.bytes,
      origin: 'generated',
    });
    const marker = imageMarker(fileKeyUrl(file.file_key), cut(oneLine(question), ALT_MAX_CHARS));
    yield { type: 'delta', text: `${image.demo ? DEMO_IMAGE_NOTICE : IMAGE_READY}\n\n${marker}` };
    yield {
      type: 'finish',
      finishReason: 'stop',
      usage: image.usage ?? { prompt_tokens: countTurnTokens(prompt[0]), completion_tokens: 0 },
      source: image.source,
    };
  }

  const chunks = reply();
  const first = chunks.next();
  first.catch(() => undefined);
  return {
    prompt,
    startedAt,
    first,
    chunks,
    cancel() {
      controller.abort();
      cancelled(new Error('the image request was cancelled'));
    },
    release: () => undefined,
    storeIn,
  };
}
