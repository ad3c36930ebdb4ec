// Reads a JSON request body: content type checked, size capped while streaming (a huge or
// endless body is cut off at the limit, never buffered whole), parse errors reported as 400.

import { ApiError } from "../errors.ts";

export const MAX_BODY_BYTES = 64 * 1024;

/** Stateless between calls (no streaming), so one serves every request. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

function tooLarge(): ApiError {
  return new ApiError(413, "PAYLOAD_TOO_LARGE", {
    message: "Request body must be at most 64 KiB.",
  });
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
    if (declared !== null && /^\d+$/.test(declared)) {
      // The declared length bounds the body (the HTTP framing delivers exactly that many bytes),
      // so it is taken whole, without the stream machinery (not even req.body, which builds it).
      bytes = new Uint8Array(await req.arrayBuffer());
    } else {
      if (!req.body) {
        throw new ApiError(400, "VALIDATION_FAILED", {
          message: "Request body is empty.",
          field: "body",
        });
      }
      bytes = await readCapped(req.body);
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // The client stopped sending before the body's end (or the connection broke): its fault,
    // not the service's, and nothing was read to act on.
    throw new ApiError(400, "VALIDATION_FAILED", {
      message: "Request body ended before it was complete.",
      field: "body",
    });
  }
  if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new ApiError(400, "VALIDATION_FAILED", {
      message: "Request body is not valid UTF-8.",
      field: "body",
    });
  }
  if (text.trim() === "") {
    throw new ApiError(400, "VALIDATION_FAILED", {
      message: "Request body is empty.",
      field: "body",
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "VALIDATION_FAILED", {
      message: "Request body is not valid JSON.",
      field: "body",
    });
  }
}

async function readCapped(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
