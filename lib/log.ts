// Structured logging: one JSON line per request to stdout. Lines carry route patterns, never
// query strings, headers, bodies or cookies, so a key or password cannot reach them.

export type LogSink = (line: Record<string, unknown>) => void;

export const stdoutLog: LogSink = (line) => {
  console.log(JSON.stringify({ time: new Date().toISOString(), ...line }));
};

/** What a 500 may log: the error's name, message and stack, kept server-side only. */
export function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return {
      name: err.name,
      message: err.message,
      stack: err.stack,
      cause: cause instanceof Error ? `${cause.name}: ${cause.message}` : undefined,
    };
  }
  return { message: String(err) };
}
