// The one error type of the service and the one place that turns errors into the envelope.

export type ErrorCode =
  | "VALIDATION_FAILED"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "UNPROCESSABLE"
  | "RATE_LIMITED"
  | "INTERNAL"
  | "DEGRADED"
  | "UNAVAILABLE";

/** Thrown anywhere a request must fail; `headers` travel with the error response (Allow, Retry-After). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly field: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The database could not be reached (as opposed to a query that failed). */
export class DatabaseUnavailable extends Error {
  constructor(override readonly cause?: unknown) {
    super("database unavailable");
  }
}

export function errorBody(err: ApiError, traceId: string) {
  return {
    error: { code: err.code, message: err.message, field: err.field, trace_id: traceId },
  };
}

/**
 * Maps anything thrown by a handler to an ApiError. Unknown errors become a bare 500:
 * their message may hold SQL, a path or a stack, which only the log line may show.
 * `unavailable` is what the route family answers when the database is down.
 */
export function toApiError(err: unknown, unavailable: ApiError): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DatabaseUnavailable) return unavailable;
  return new ApiError(500, "INTERNAL", "Internal error; retry with exponential backoff.");
}
