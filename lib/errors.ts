// The one error type of the service and the one place that turns errors into the envelope.

/**
 * Every error.code of contract.md §1, one per status, and REQUEST_TIMEOUT for 408 (a body that
 * never arrives), a status it leaves open.
 */
const CONTRACT_CODES = [
  "VALIDATION_FAILED",
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "REQUEST_TIMEOUT",
  "CONFLICT",
  "GONE",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "UNPROCESSABLE",
  "RATE_LIMITED",
  "INTERNAL",
  "DEGRADED",
  "UNAVAILABLE",
] as const;

/**
 * Codes of their own, beside the contract's for their status: the refusals of a public session
 * start on a questionnaire with bot protection (routes/forms/public.ts), by their status.
 */
export const OWN_CODES = {
  FORM_TOKEN_REQUIRED: 400,
  FORM_TOKEN_INVALID: 400,
  FORM_TOKEN_EXPIRED: 400,
  PROOF_OF_WORK_INVALID: 400,
  HONEYPOT_FILLED: 400,
  FORM_TOKEN_USED: 409,
  FILLED_TOO_FAST: 422,
} as const;

/** Every error.code; the OpenAPI document lists the same. */
export const ERROR_CODES = [
  ...CONTRACT_CODES,
  ...Object.keys(OWN_CODES) as (keyof typeof OWN_CODES)[],
];

export type ErrorCode = typeof ERROR_CODES[number];

export interface ApiErrorOptions {
  message: string;
  /** The request field at fault (`query.from`, `body.email`), or none. */
  field?: string | null;
  /** Headers that travel with the error response (Allow, Retry-After). */
  headers?: Record<string, string>;
  /**
   * False for a refusal of the caller rather than of the request (as a 429): it is not stored
   * under the request's Idempotency-Key, so a retry with the same key is decided afresh.
   */
  replayable?: boolean;
}

/** Thrown anywhere a request must fail; turned into the envelope by lib/http/steps.ts alone. */
export class ApiError extends Error {
  readonly field: string | null;
  readonly headers: Record<string, string>;
  readonly replayable: boolean;
  constructor(readonly status: number, readonly code: ErrorCode, options: ApiErrorOptions) {
    super(options.message);
    this.field = options.field ?? null;
    this.headers = options.headers ?? {};
    this.replayable = options.replayable ?? true;
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
  return new ApiError(500, "INTERNAL", {
    message: "Internal error; retry with exponential backoff.",
  });
}
