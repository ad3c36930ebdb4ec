// Trace ids: continue a valid incoming W3C traceparent, else start a new trace.

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
/** Two hex digits per byte value: a new id is 16 lookups, not 16 number-to-string conversions. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

export function traceIdFrom(traceparent: string | null): string {
  const match = traceparent ? TRACEPARENT.exec(traceparent.trim().toLowerCase()) : null;
  // Version ff and all-zero ids are invalid (W3C Trace Context), whatever the header's case.
  if (match && match[1] !== "ff" && !/^0+$/.test(match[2]) && !/^0+$/.test(match[3])) {
    return match[2];
  }
  let id = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(16))) id += HEX[byte];
  return id;
}
