/** A failed API call, carrying the sentence a screen shows (`detail`). */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly fields?: Record<string, string>;
  /** The envelope's `code`: a case a screen handles specially (e.g. `activation_expired`). */
  readonly code?: string;
  readonly aborted: boolean;

  constructor(init: { status: number; detail: string; fields?: Record<string, string>; code?: string; aborted?: boolean }) {
    super(init.detail);
    this.name = 'ApiError';
    this.status = init.status;
    this.detail = init.detail;
    this.fields = init.fields;
    this.code = init.code;
    this.aborted = init.aborted ?? false;
  }
}

export const NETWORK_ERROR = 'Network Error';

/** The server's sentence when it gave one, else the screen's own fallback (the spec's error catalogue). */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status !== 0 && error.detail ? error.detail : fallback;
}

export const isAbort = (error: unknown) => error instanceof ApiError && error.aborted;
