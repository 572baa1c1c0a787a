// Domain errors: what went wrong in the terms of the business, never in HTTP's. Services throw these; the one
// error handler (server/http/errors.ts) turns each kind into its status code and the error envelope.
// `detail` is a sentence the person using the app can read; `code` names a case a screen handles specially.

export abstract class DomainError extends Error {
  constructor(
    readonly detail: string,
    readonly code?: string,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

/** Not signed in, or the session is no longer valid. */
export class UnauthenticatedError extends DomainError {
  constructor(detail = 'Not authenticated', code?: string) {
    super(detail, code);
  }
}

/** Signed in, but not allowed to do this. */
export class ForbiddenError extends DomainError {
  constructor(detail = 'You do not have permission to do this', code?: string) {
    super(detail, code);
  }
}

/** Does not exist, or belongs to someone else (which must look the same). */
export class NotFoundError extends DomainError {
  constructor(detail = 'Not found', code?: string) {
    super(detail, code);
  }
}

/** Clashes with the current state (e.g. a conversation still answering). */
export class ConflictError extends DomainError {}

/** The input is well-formed but not acceptable; `fields` maps an input's path to its sentence. */
export class InvalidError extends DomainError {
  constructor(
    detail: string,
    readonly fields?: Record<string, string>,
    code?: string,
  ) {
    super(detail, code);
  }
}

/** The upload is larger than allowed (or unpacks to more than allowed). */
export class TooLargeError extends DomainError {}

/** The upload is not of an accepted type, or its content does not match its name. */
export class UnsupportedTypeError extends DomainError {}

/** Too many attempts; try again after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail);
  }
}

/** Something the service depends on (the database) does not answer. */
export class UnavailableError extends DomainError {}
