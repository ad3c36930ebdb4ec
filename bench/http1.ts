// A minimal HTTP/1.1 client for load runs: one keep-alive connection, one request at a time,
// Content-Length bodies only. The load generator shares the machine's cores with the service
// and the database, and fetch costs it several times more CPU per request than this does.
// Anything it does not expect (a closed connection, chunked or unsized bodies, a malformed
// response) throws, so a bench never counts what it did not understand.

const CRLFCRLF = [13, 10, 13, 10];

export interface Http1Response {
  status: number;
  /** Header names in lower case. */
  headers: Map<string, string>;
  text: string;
}

export interface Http1Connection {
  /** POSTs a JSON body and reads the whole response. */
  post(path: string, json: string, headers?: Record<string, string>): Promise<Http1Response>;
  /** GETs a path and reads the whole response. */
  get(path: string, headers?: Record<string, string>): Promise<Http1Response>;
  close(): void;
}

export async function connectHttp1(hostname: string, port: number): Promise<Http1Connection> {
  const conn = await Deno.connect({ hostname, port });
  conn.setNoDelay(true);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  // Bytes received and not yet consumed are buf[start, end).
  let buf = new Uint8Array(16 * 1024);
  let start = 0;
  let end = 0;
  let busy = false;

  async function fill() {
    if (end === buf.length) {
      if (start > 0) {
        buf.copyWithin(0, start, end);
        end -= start;
        start = 0;
      } else {
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf.subarray(0, end));
        buf = bigger;
      }
    }
    const n = await conn.read(buf.subarray(end));
    if (n === null) throw new Error("http1: the service closed the connection");
    end += n;
  }

  /** Index of the blank line that ends the response head, or -1. */
  function headEnd(): number {
    outer: for (let i = start; i + 3 < end; i++) {
      for (let j = 0; j < 4; j++) if (buf[i + j] !== CRLFCRLF[j]) continue outer;
      return i;
    }
    return -1;
  }

  async function readResponse(): Promise<Http1Response> {
    let blank: number;
    while ((blank = headEnd()) < 0) await fill();
    const lines = decoder.decode(buf.subarray(start, blank)).split("\r\n");
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(lines[0] + " ");
    if (!status) throw new Error(`http1: malformed status line ${JSON.stringify(lines[0])}`);
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new Error(`http1: malformed header line ${JSON.stringify(line)}`);
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    if (headers.has("transfer-encoding")) {
      throw new Error(`http1: unexpected transfer-encoding ${headers.get("transfer-encoding")}`);
    }
    if (headers.get("connection")?.toLowerCase() === "close") {
      throw new Error("http1: the service wants to close the connection");
    }
    const declared = headers.get("content-length");
    const length = Number(declared);
    if (declared === undefined || !Number.isSafeInteger(length) || length < 0) {
      throw new Error(`http1: missing or bad content-length ${declared}`);
    }
    start = blank + 4;
    while (end - start < length) await fill();
    const text = decoder.decode(buf.subarray(start, start + length));
    start += length;
    if (start === end) start = end = 0;
    return { status: Number(status[1]), headers, text };
  }

  /** Sends one request (head, then the body if any) and reads its response. */
  async function exchange(
    method: "GET" | "POST",
    path: string,
    headers: Record<string, string>,
    body: Uint8Array | null,
  ): Promise<Http1Response> {
    if (busy) throw new Error("http1: one request at a time per connection");
    busy = true;
    try {
      if (start !== end) throw new Error("http1: bytes received before the request");
      let head = `${method} ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n`;
      if (body) head += `content-type: application/json\r\ncontent-length: ${body.length}\r\n`;
      for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
      const headBytes = encoder.encode(head + "\r\n");
      const request = new Uint8Array(headBytes.length + (body?.length ?? 0));
      request.set(headBytes);
      if (body) request.set(body, headBytes.length);
      for (let written = 0; written < request.length;) {
        written += await conn.write(request.subarray(written));
      }
      return await readResponse();
    } finally {
      busy = false;
    }
  }

  return {
    post: (path, json, headers = {}) => exchange("POST", path, headers, encoder.encode(json)),
    get: (path, headers = {}) => exchange("GET", path, headers, null),
    close() {
      conn.close();
    },
  };
}
