// Reads a JSON request body: content type checked, size capped while streaming (a huge or
// endless body is cut off at the limit, never buffered whole), parse errors reported as 400.

import { ApiError } from "../errors.ts";

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

export async function readJsonBody(req: Request): Promise<unknown> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") {
    throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", {
      message: "Send the body as JSON with Content-Type: application/json.",
    });
  }
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  let bytes: Uint8Array;
  try {
    // The declared length bounds the body (the HTTP framing delivers exactly that many bytes),
    // so it is taken whole, without the stream machinery (not even req.body, which builds it).
    bytes = declared !== null && /^\d+$/.test(declared)
      ? await req.bytes()
      : await readCapped(req.body);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // The client stopped sending before the body's end (or the connection broke): its fault,
    // not the service's, and nothing was read to act on.
    throw badBody("Request body ended before it was complete.");
  }
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
