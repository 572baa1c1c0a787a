import { useEffect, useRef, type RefObject } from 'react';

// reCAPTCHA v2, explicit rendering (https://developers.google.com/recaptcha/docs/display#explicit_render): the
// widget's script is loaded once, when the contact form first needs it, never with the landing page. What the
// widget says goes to the contact form machine as events; the machine says when to reset it.

interface Grecaptcha {
  render(container: HTMLElement, options: Record<string, unknown>): number;
  reset(id?: number): void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    [ONLOAD]?: () => void;
  }
}

const ONLOAD = '__tanyaRecaptchaLoaded';
let loading: Promise<Grecaptcha> | null = null;

function loadScript(scriptUrl: string): Promise<Grecaptcha> {
  if (loading) return loading;
  loading = new Promise<Grecaptcha>((resolve, reject) => {
    window[ONLOAD] = () => (window.grecaptcha ? resolve(window.grecaptcha) : reject(new Error('no grecaptcha')));
    const script = document.createElement('script');
    const url = new URL(scriptUrl);
    url.searchParams.set('onload', ONLOAD);
    url.searchParams.set('render', 'explicit');
    script.src = url.href;
    script.async = true;
    script.onerror = () => reject(new Error('reCAPTCHA script failed to load'));
    document.head.appendChild(script);
  });
  // A failed load may be tried again on the next opening of the form.
  loading.catch(() => (loading = null));
  return loading;
}

export interface RecaptchaReports {
  verified(token: string): void;
  expired(): void;
  failed(): void;
  unavailable(): void;
}

/**
 * Renders the widget into `container` while `siteKey` is set and the container is mounted; `resets` changing
 * resets it (the machine raises it after a failed submission).
 */
export function useRecaptcha(container: RefObject<HTMLDivElement | null>, siteKey: string | null, scriptUrl: string, resets: number, reports: RecaptchaReports) {
  const widget = useRef<{ api: Grecaptcha; id: number } | null>(null);
  const latest = useRef(reports);
  useEffect(() => {
    latest.current = reports;
  });

  useEffect(() => {
    const element = container.current;
    if (!siteKey || !element) return;
    let gone = false;
    loadScript(scriptUrl).then(
      (api) => {
        if (gone) return;
        const theme = document.documentElement.classList.contains('dark') ? 'dark' : 'light';
        const id = api.render(element, {
          sitekey: siteKey,
          theme,
          callback: (token: string) => latest.current.verified(token),
          'expired-callback': () => latest.current.expired(),
          'error-callback': () => latest.current.failed(),
        });
        widget.current = { api, id };
      },
      () => !gone && latest.current.unavailable(),
    );
    return () => {
      gone = true;
      widget.current = null;
      element.replaceChildren();
    };
  }, [container, siteKey, scriptUrl]);

  useEffect(() => {
    if (resets > 0) widget.current?.api.reset(widget.current.id);
  }, [resets]);
}
