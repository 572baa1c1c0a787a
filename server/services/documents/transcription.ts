import { toFile } from 'openai';
import type { LlmEndpoint } from '../../config';
import { endpointBase, openAiSdkFor } from '../../llm/openai-sdk';

/** Transcribing a long recording takes a while; beyond this the document fails and can be uploaded again. */
const TRANSCRIPTION_TIMEOUT_MS = 10 * 60_000;

/** The transcription endpoint failed; the message names the status at most (never the body or the key). */
export class TranscriptionError extends Error {
  override name = 'TranscriptionError';
}

/**
 * The recording's text, through the OpenAI-compatible POST /audio/transcriptions (Whisper and its kin) with the
 * official SDK (a proxy from HTTPS_PROXY, see llm/openai-sdk.ts). Tried once: ingestion retries the document.
 */
export async function transcribeAudio(
  endpoint: LlmEndpoint,
  audio: { bytes: Buffer; filename: string; mime: string },
  signal?: AbortSignal,
): Promise<string> {
  const { host } = endpointBase(endpoint);
  const client = openAiSdkFor(endpoint, { maxRetries: 0, timeoutMs: TRANSCRIPTION_TIMEOUT_MS, keyWhenUnset: 'not-needed' });
  const timeout = AbortSignal.timeout(TRANSCRIPTION_TIMEOUT_MS);
  let body: { text?: unknown };
  try {
    body = await client.audio.transcriptions.create(
      { model: endpoint.model, response_format: 'json', file: await toFile(audio.bytes, audio.filename, { type: audio.mime }) },
      { signal: signal ? AbortSignal.any([signal, timeout]) : timeout },
    );
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number') throw new TranscriptionError(`the transcription endpoint ${host} answered HTTP ${status}`);
    throw new TranscriptionError(`the transcription endpoint ${host} could not be reached`, { cause: err });
  }
  if (typeof body.text !== 'string') throw new TranscriptionError(`the transcription endpoint ${host} answered without a text`);
  return body.text;
}
