import { fileTypeFromBuffer } from 'file-type';
import type { ImagesConfig } from '../../../config';
import { APIError } from 'openai';
import type { ImageGenerateParams } from 'openai/resources/images';
import { endpointBase, openAiSdkFor } from '../../../llm/openai-sdk';
import { LlmCallError, type ModelSource, type TokenUsage } from '../../../llm/types';
import { readLimited } from './read-body';
import { safeFetch, SafeFetchError, type Resolver } from './safe-fetch';
import { drawDemoImage } from './demo-image';

/** Image models take a while (gpt-image-1 often 30-60 s); past this the reply ends with the model error marker. */
export const IMAGE_TIMEOUT_MS = 180_000;
/** A generated image above this is not kept (a 1024x1024 PNG is 1-3 MB). */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** The endpoint's JSON answer: the image in base64 (4/3 of its size) and a little more. */
const ANSWER_MAX_BYTES = Math.ceil((IMAGE_MAX_BYTES * 4) / 3) + 64 * 1024;
/** What is kept: the images the documents table accepts (ACCEPTED_EXTENSIONS). */
const KEPT_TYPES: Record<string, '.png' | '.jpg'> = { 'image/png': '.png', 'image/jpeg': '.jpg' };

export const DEMO_IMAGE_SOURCE: ModelSource = { provider: 'offline', model: 'tanya-demo-image' };

export interface GeneratedImage {
  bytes: Buffer;
  mime: 'image/png' | 'image/jpeg';
  extension: '.png' | '.jpg';
  /** Reported by the endpoint (gpt-image-1 does; dall-e-3 does not), else null. */
  usage: TokenUsage | null;
  source: ModelSource;
  /** True for the locally drawn stand-in (no IMAGES_MODEL). */
  demo: boolean;
}

export interface GenerateOptions {
  signal: AbortSignal;
  /** For images answered by URL: the SSRF guard's allowance (WEB_FETCH_ALLOW_HOSTS). */
  allowHosts: readonly string[];
  resolve?: Resolver;
}

/**
 * Asks an OpenAI-compatible images endpoint (POST {base}/images/generations) for one image, answered either as
 * `b64_json` (gpt-image-1 always) or as a `url` (dall-e-2/3 by default), which is then fetched through the SSRF
 * guard: image types only, size-capped. Without a model configured, a labelled demo image is drawn locally.
 * Every failure is an LlmCallError: the reply then ends with the model error marker, like a failed chat model.
 */
export async function generateImage(images: ImagesConfig | undefined, prompt: string, options: GenerateOptions): Promise<GeneratedImage> {
  if (!images) return { bytes: drawDemoImage(prompt), mime: 'image/png', extension: '.png', usage: { prompt_tokens: 0, completion_tokens: 0 }, source: DEMO_IMAGE_SOURCE, demo: true };

  const { host } = endpointBase(images);
  const source: ModelSource = { provider: host, model: images.model };
  const fail = (message: string, status?: number, cause?: unknown) => new LlmCallError(source, message, status, { cause });
  const timeout = AbortSignal.timeout(IMAGE_TIMEOUT_MS);
  const signal = AbortSignal.any([options.signal, timeout]);
  // Through the official SDK (a proxy from HTTPS_PROXY, see llm/openai-sdk.ts), tried once as before; no key
  // configured, no Authorization header.
  const client = openAiSdkFor(images, { maxRetries: 0, timeoutMs: IMAGE_TIMEOUT_MS });

  let answer: unknown;
  try {
    // The raw answer, read here under a size cap: the SDK would read any length into memory.
    const res = await client.images
      // No response_format: gpt-image-1 refuses it (and always answers b64_json); dall-e answers a URL by default.
      .generate({ model: images.model, prompt, n: 1, size: images.size as ImageGenerateParams['size'] }, { signal })
      .asResponse();
    const body = await readLimited(res as unknown as Response, ANSWER_MAX_BYTES, () => fail(`too large an answer from ${source.provider}`));
    answer = JSON.parse(body.toString('utf8'));
  } catch (err) {
    if (err instanceof LlmCallError) throw err;
    if (err instanceof APIError && err.status !== undefined) throw fail(`HTTP ${err.status} from ${source.provider}`, err.status, err);
    const kind = timeout.aborted ? 'no answer in time' : options.signal.aborted ? 'cancelled' : err instanceof SyntaxError ? 'an answer that is not JSON' : 'a connection failure';
    throw fail(`${kind} from ${source.provider}`, undefined, err);
  }

  const first = (answer as { data?: Array<{ b64_json?: unknown; url?: unknown }> } | null)?.data?.[0];
  let bytes: Buffer;
  if (typeof first?.b64_json === 'string') {
    bytes = Buffer.from(first.b64_json, 'base64');
  } else if (typeof first?.url === 'string') {
    try {
      const image = await safeFetch(first.url, {
        accept: ['image/png', 'image/jpeg', 'image/webp'],
        maxBytes: IMAGE_MAX_BYTES,
        timeoutMs: 60_000,
        maxRedirects: 3,
        allowHosts: options.allowHosts,
        resolve: options.resolve,
        signal,
      });
      bytes = image.body;
    } catch (err) {
      // The URL is not in the message: signed storage URLs carry a token in their query.
      throw fail(`the image could not be fetched: ${err instanceof SafeFetchError ? err.message : 'the fetch failed'}`, undefined, err);
    }
  } else {
    throw fail(`no image in the answer from ${source.provider}`);
  }
  if (bytes.length === 0 || bytes.length > IMAGE_MAX_BYTES) throw fail(`an image of ${bytes.length} bytes from ${source.provider}`);

  // The type by content, whatever the endpoint or the image's server said.
  const type = await fileTypeFromBuffer(bytes);
  const extension = type ? KEPT_TYPES[type.mime] : undefined;
  if (!type || !extension) throw fail(`an image type that is not kept (${type?.mime ?? 'unknown'}) from ${source.provider}`);
  const usage = (answer as { usage?: { input_tokens?: unknown; output_tokens?: unknown } }).usage;
  return {
    bytes,
    mime: type.mime as GeneratedImage['mime'],
    extension,
    usage:
      typeof usage?.input_tokens === 'number' && typeof usage.output_tokens === 'number'
        ? { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens }
        : null,
    source,
    demo: false,
  };
}
