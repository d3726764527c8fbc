/**
 * Business errors carry their HTTP status and a stable, dotted, lowercase code; the edge maps them to the
 * face's error body. `details` never holds secrets or personal data.
 */
export class DomainError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  /** Extra response headers the refusal comes with (e.g. `Retry-After` on a 429). */
  readonly headers?: Readonly<Record<string, string>>;

  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}, headers?: Readonly<Record<string, string>>) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.details = details;
    if (headers) this.headers = headers;
  }
}

/** 400: the request itself is malformed or fails validation. */
export class BadRequestError extends DomainError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(400, code, message, details);
  }
}

/** 401: no credentials, or credentials that are unknown, revoked, expired or for the other deployment. */
export class UnauthorizedError extends DomainError {
  constructor(code: string, message: string) {
    super(401, code, message);
  }
}

/** 403: authenticated, but not allowed. Unknown and foreign resources answer the same, so ids cannot be probed. */
export class ForbiddenError extends DomainError {
  constructor(message = 'You do not have access to this resource.') {
    super(403, 'forbidden', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(code: string, message: string) {
    super(404, code, message);
  }
}

/** 409: the request conflicts with the current state. */
export class ConflictError extends DomainError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(409, code, message, details);
  }
}

/** 422: well-formed, but the business rules refuse it. */
export class UnprocessableError extends DomainError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(422, code, message, details);
  }
}
