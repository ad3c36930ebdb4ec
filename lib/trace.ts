// Trace ids: continue a valid incoming W3C traceparent, else start a new trace.

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

export function traceIdFrom(traceparent: string | null): string {
  const match = traceparent ? TRACEPARENT.exec(traceparent.trim().toLowerCase()) : null;
  if (match && !/^0+$/.test(match[1]) && !/^0+$/.test(match[2]) && !traceparent!.startsWith("ff")) {
    return match[1];
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
