import type { ContactFormConfig } from '../../config';

// reCAPTCHA v2's server-side check (https://developers.google.com/recaptcha/docs/verify): the token the widget gave
// the browser, with our secret and the person's address, POSTed to the verifier (Google's, or the tests' local one).

/** 'misconfigured': the verifier refused our secret (the operator's mistake, not the person's). */
export type RecaptchaVerdict = 'passed' | 'refused' | 'misconfigured' | 'unreachable';

const SECRET_ERRORS = new Set(['invalid-input-secret', 'missing-input-secret']);

const VERIFY_TIMEOUT_MS = 5_000;

export async function verifyRecaptcha(config: ContactFormConfig, token: string, ip: string): Promise<RecaptchaVerdict> {
  if (!config.recaptchaSecret) return 'unreachable';
  try {
    const answer = await fetch(config.recaptchaVerifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: config.recaptchaSecret, response: token, remoteip: ip }).toString(),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    if (!answer.ok) return 'unreachable';
    const body = (await answer.json()) as { success?: unknown; 'error-codes'?: unknown };
    if (body.success === true) return 'passed';
    const codes = Array.isArray(body['error-codes']) ? body['error-codes'] : [];
    return codes.some((c) => SECRET_ERRORS.has(String(c))) ? 'misconfigured' : 'refused';
  } catch {
    return 'unreachable';
  }
}
