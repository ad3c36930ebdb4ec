// Receives a JSON request body within a deadline of its own, before the request's database work
// starts, then parses it: content type checked, size capped while streaming (a huge or endless
// body is cut off at the limit, never buffered whole), parse errors reported as 400.

import { ApiError } from "../errors.ts";
import { EXPIRED, within } from "../db/deadline.ts";

const MAX_BODY_BYTES = 64 * 1024;

/** Stateless between calls (no streaming), so one serves every request. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

function tooLarge(): ApiError {
  return new ApiError(413, "PAYLOAD_TOO_LARGE", {
    message: "Request body must be at most 64 KiB.",
  });
}

function badBody(message: string): ApiError {
  return new ApiError(400, "VALIDATION_FAILED", { message, field: "body" });
}

/**
 * The body's bytes, or the refusal its headers or framing earned. A refusal is kept, not thrown:
 * the route checks the caller and the query first, exactly as if the body were read there.
 */
export type ReceivedBody = { bytes: Uint8Array } | { refused: ApiError };

/**
 * Waits for the body at most `deadlineMs`. A client that stops sending holds only its own
 * connection: nothing of the database has been asked for yet, so its wait never counts as the
 * database's. Past the deadline it is answered 408 and the connection is closed.
 */
export async function receiveBody(req: Request, deadlineMs: number): Promise<ReceivedBody> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") {
    return {
      refused: new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", {
        message: "Send the body as JSON with Content-Type: application/json.",
      }),
    };
  }
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) return { refused: tooLarge() };
  // The declared length bounds the body (the HTTP framing delivers exactly that many bytes),
  // so it is taken whole, without the stream machinery (not even req.body, which builds it).
  const reading = declared !== null && /^\d+$/.test(declared) ? req.bytes() : readCapped(req.body);
  const received = await within(
    reading.then(
      (bytes): ReceivedBody => ({ bytes }),
      // The client stopped sending before the body's end (or the connection broke): its fault,
      // not the service's, and nothing was read to act on.
      (err): ReceivedBody => ({
        refused: err instanceof ApiError
          ? err
          : badBody("Request body ended before it was complete."),
      }),
    ),
    deadlineMs,
  );
  if (received !== EXPIRED) return received;
  // The pending read settles when the connection closes, which this answer asks for.
  throw new ApiError(408, "REQUEST_TIMEOUT", {
    message: `The request body did not arrive within ${deadlineMs} ms; send it whole at once.`,
    headers: { Connection: "close" },
  });
}

/**
 * The request has no body by its HTTP framing (Content-Length 0, or neither it nor
 * Transfer-Encoding), whatever its Content-Type: a route whose body is optional reads none.
 */
export function bodiless(req: Request): boolean {
  const length = req.headers.get("content-length");
  return req.headers.get("transfer-encoding") === null && (length === null || length === "0");
}

/** The received body as JSON, or the refusal it earned. */
export function parseJsonBody(received: ReceivedBody): unknown {
  if ("refused" in received) throw received.refused;
  const { bytes } = received;
  if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw badBody("Request body is not valid UTF-8.");
  }
  if (text.trim() === "") throw badBody("Request body is empty.");
  try {
    return JSON.parse(text);
  } catch {
    throw badBody("Request body is not valid JSON.");
  }
}

/** Leaving the loop early cancels the stream: the rest of a too large body is never read. */
async function readCapped(body: ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  if (!body) throw badBody("Request body is empty.");
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk as Uint8Array<ArrayBuffer>);
  }
  return await new Blob(chunks).bytes();
}
