import type { LlmEndpoint } from '../config';

const OPENAI_API = 'https://api.openai.com/v1';
/** Transcribing a long recording takes a while; beyond this the document fails and can be uploaded again. */
const TRANSCRIPTION_TIMEOUT_MS = 10 * 60_000;

/** The transcription endpoint failed; the message names the status at most (never the body or the key). */
export class TranscriptionError extends Error {
  override name = 'TranscriptionError';
}

/** The recording's text, through the OpenAI-compatible POST /audio/transcriptions (Whisper and its kin). */
export async function transcribeAudio(
  endpoint: LlmEndpoint,
  audio: { bytes: Buffer; filename: string; mime: string },
  signal?: AbortSignal,
): Promise<string> {
  const url = `${(endpoint.baseUrl ?? OPENAI_API).replace(/\/+$/, '')}/audio/transcriptions`;
  const host = new URL(url).host;
  const form = new FormData();
  form.set('model', endpoint.model);
  form.set('response_format', 'json');
  form.set('file', new Blob([new Uint8Array(audio.bytes)], { type: audio.mime }), audio.filename);
  const timeout = AbortSignal.timeout(TRANSCRIPTION_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${endpoint.apiKey ?? 'not-needed'}` },
      body: form,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new TranscriptionError(`the transcription endpoint ${host} could not be reached`, { cause: err });
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new TranscriptionError(`the transcription endpoint ${host} answered HTTP ${res.status}`);
  }
  const body = (await res.json()) as { text?: unknown };
  if (typeof body.text !== 'string') throw new TranscriptionError(`the transcription endpoint ${host} answered without a text`);
  return body.text;
}
