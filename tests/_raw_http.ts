// Raw HTTP/1.1 over TCP (or TLS) for what fetch cannot send: a head or body cut short, one byte
// at a time, or a connection left idle. Every read has a time limit, so a broken rule fails the
// test instead of hanging it.

const encoder = new TextEncoder();

export interface RawTarget {
  hostname: string;
  port: number;
  /** PEM of a CA to trust: connects over TLS. */
  caCert?: string;
}

export function connectRaw(target: RawTarget): Promise<Deno.Conn> {
  const { hostname, port, caCert } = target;
  return caCert
    ? Deno.connectTls({ hostname, port, caCerts: [caCert] })
    : Deno.connect({ hostname, port });
}

export async function send(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = encoder.encode(text);
  for (let sent = 0; sent < bytes.length;) sent += await conn.write(bytes.subarray(sent));
}

/** A JSON POST's head and the first `sentBytes` bytes of a body of `declaredBytes`. */
export function cutPost(path: string, declaredBytes: number, sentBytes: number): string {
  const body = '{"name":"' + "x".repeat(Math.max(0, declaredBytes - 11)) + '"}';
  return `POST ${path} HTTP/1.1\r\nHost: onda.test\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${declaredBytes}\r\n\r\n` + body.slice(0, sentBytes);
}

export interface RawOutcome {
  /** Everything the server sent before it closed the connection or the limit passed. */
  text: string;
  /** Whether the server closed the connection within the limit. */
  closed: boolean;
  /** When it closed (or the limit passed), in ms after the call. */
  ms: number;
}

/** Whether `text` holds a whole response whose body has a Content-Length. */
function answered(text: string): boolean {
  const end = text.indexOf("\r\n\r\n");
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
  return end >= 0 && length !== undefined &&
    new TextEncoder().encode(text.slice(end + 4)).length >= Number(length);
}

/**
 * Reads until the server closes the connection, at most `limitMs` (or, `untilAnswered`, until a
 * whole response has arrived); closes it either way.
 */
export async function readUntilClosed(
  conn: Deno.Conn,
  limitMs: number,
  untilAnswered = false,
): Promise<RawOutcome> {
  const started = performance.now();
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(16 * 1024);
  let closed = false;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    conn.close();
  }, limitMs);
  try {
    for (;;) {
      const n = await conn.read(buffer);
      if (n === null) {
        closed = true;
        break;
      }
      chunks.push(buffer.slice(0, n));
      if (untilAnswered && answered(decoded(chunks))) break;
    }
  } catch {
    // Reset by the server, or closed here at the limit: only the server's doing counts.
    closed = !timedOut;
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // already closed
    }
  }
  return { text: decoded(chunks), closed, ms: performance.now() - started };
}

function decoded(chunks: Uint8Array[]): string {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}
