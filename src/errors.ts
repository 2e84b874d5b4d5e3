/**
 * Typed errors thrown by handlers and the pipeline. Every surface maps them to the same status
 * and message, so a caller sees one error model whether it speaks REST, MCP or the CLI.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 429 | 500 | 503;

export class ServiceError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  toBody(): ErrorBody {
    return { error: this.message };
  }
}

export interface ErrorBody {
  error: string;
  retryAfterMs?: number;
}

/** 400: the message names the field and the rule it broke. */
export class BadInputError extends ServiceError {
  constructor(message: string) {
    super(400, message);
  }

  static field(field: string, rule: string): BadInputError {
    return new BadInputError(`${field}: ${rule}`);
  }
}

export class UnauthorizedError extends ServiceError {
  constructor(message = 'missing or invalid API key: send Authorization: Bearer <key>') {
    super(401, message);
  }
}

export class ForbiddenError extends ServiceError {
  constructor(message: string) {
    super(403, message);
  }
}

/** 404 for missing objects and for objects of another workspace alike: same status, same text. */
export class NotFoundError extends ServiceError {
  constructor(what: string, id: string) {
    super(404, `${what} ${id} not found in this workspace`);
  }
}

export class RateLimitedError extends ServiceError {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(429, message);
  }

  override toBody(): ErrorBody {
    return { error: this.message, retryAfterMs: this.retryAfterMs };
  }
}

/** Maps anything thrown to a ServiceError; unknown faults become a 500 that leaks no internals. */
export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  return new ServiceError(500, 'internal error; the failure was logged');
}
