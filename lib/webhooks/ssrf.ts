// Webhook target checks against SSRF: a target must be https and its host must be, and resolve
// only to, public addresses - unless private targets are allowed (development and tests).
// The same check runs when a webhook is created and before every delivery attempt, because
// what a name resolves to can change after creation; postPinned then connects to the very
// address that passed, so a second DNS answer (rebinding) cannot swap in a private one.

/** Resolves a name to its addresses of one family (Deno.resolveDns in production). */
export type Resolver = (name: string, type: "A" | "AAAA") => Promise<string[]>;

export const systemResolver: Resolver = (name, type) => Deno.resolveDns(name, type);

export type TargetCheck =
  | {
    ok: true;
    url: URL;
    /** The checked address to connect to (a name's resolution); null when no pin is needed. */
    address: string | null;
  }
  | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;
const PRIVATE_TARGET = "url must not point to a private, loopback or link-local address.";
const refused = (reason: string): TargetCheck => ({ ok: false, reason });

/** Checks a webhook target URL; the reason of a refusal is a sentence for the caller. */
export async function checkTarget(
  raw: string,
  options: { allowPrivate: boolean; resolve?: Resolver },
): Promise<TargetCheck> {
  if (raw.length > MAX_URL_LENGTH) {
    return refused(`url must be at most ${MAX_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refused("url must be an absolute URL like https://example.com/hook.");
  }
  if (url.protocol !== "https:" && !(options.allowPrivate && url.protocol === "http:")) {
    return refused("url must use https.");
  }
  // fetch refuses URLs with credentials, and they would show in every webhook listing.
  if (url.username || url.password) return refused("url must not contain a user name or password.");
  if (options.allowPrivate) return { ok: true, url, address: null };

  // The URL parser has already normalised numeric hosts (2130706433, 0x7f.1) to dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (parseIPv4(host) || parseIPv6(host)) {
    return isPublicAddress(host) ? { ok: true, url, address: null } : refused(PRIVATE_TARGET);
  }
  const name = host.replace(/\.$/, "").toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) return refused(PRIVATE_TARGET);
  const resolve = options.resolve ?? systemResolver;
  const found = await Promise.all(
    (["A", "AAAA"] as const).map((type) => resolve(name, type).catch(() => [] as string[])),
  );
  const addresses = found.flat();
  if (addresses.length === 0) return refused("url's host name does not resolve.");
  // Every address must be public: a name with one public and one private address would
  // otherwise reach the private one whenever the connection picks it.
  if (!addresses.every(isPublicAddress)) {
    return refused("url's host name resolves to a private, loopback or link-local address.");
  }
  return { ok: true, url, address: addresses[0] };
}

/** The four bytes of a dotted-quad IPv4 address, or null. */
function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

/** The sixteen bytes of an IPv6 address (with an optional dotted-quad tail), or null. */
function parseIPv6(text: string): number[] | null {
  // Only address characters, so that the URL below cannot read anything but an address in it.
  if (!/^[0-9a-f:.]+$/i.test(text)) return null;
  // The URL parser validates the address strictly and writes it in its canonical form: hex
  // groups only (a dotted-quad tail becomes two), at most one "::".
  let canonical: string;
  try {
    canonical = new URL(`http://[${text}]`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head, tail] = canonical.split("::").map((part) =>
    part ? part.split(":").map((group) => parseInt(group, 16)) : []
  );
  const zeros = tail ? new Array<number>(8 - head.length - tail.length).fill(0) : [];
  return [...head, ...zeros, ...(tail ?? [])].flatMap((group) => [group >> 8, group & 0xff]);
}

type Range = [prefix: number[], bits: number];

// Not public: this network, private (RFC 1918), shared/CGNAT, loopback, link-local, IETF
// protocol assignments, documentation, 6to4 relay, benchmarking, multicast, reserved, broadcast.
const PRIVATE_V4: Range[] = [
  [[0, 0, 0, 0], 8],
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10],
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 0, 2, 0], 24],
  [[192, 88, 99, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4],
  [[240, 0, 0, 0], 4],
];

// Inside global unicast (2000::/3), still not public: Teredo and other IETF assignments,
// benchmarking, ORCHID, documentation (2001:db8::/32 and 3fff::/20).
const PRIVATE_V6: Range[] = [
  [[0x20, 0x01, 0x00, 0x00], 32],
  [[0x20, 0x01, 0x00, 0x02, 0x00, 0x00], 48],
  [[0x20, 0x01, 0x00, 0x10], 28],
  [[0x20, 0x01, 0x00, 0x20], 28],
  [[0x20, 0x01, 0x0d, 0xb8], 32],
  [[0x3f, 0xff, 0x00], 20],
];

function inRange(bytes: number[], [prefix, bits]: Range): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[i / 8] & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function isPublicV4(bytes: number[]): boolean {
  return !PRIVATE_V4.some((range) => inRange(bytes, range));
}

/** True only for a globally routable unicast address; anything unparseable is not public. */
export function isPublicAddress(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4) return isPublicV4(v4);
  const v6 = parseIPv6(address.replace(/^\[|\]$/g, ""));
  if (!v6) return false;
  const zeros = (from: number, to: number) => v6.slice(from, to).every((b) => b === 0);
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d, also :: and ::1): the
  // connection goes to the embedded IPv4 address, so that address decides.
  if (zeros(0, 10) && ((v6[10] === 0xff && v6[11] === 0xff) || zeros(10, 12))) {
    return isPublicV4(v6.slice(12));
  }
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address.
  if (inRange(v6, [[0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96])) {
    return isPublicV4(v6.slice(12));
  }
  // 6to4 (2002::/16) embeds the IPv4 address of its relay.
  if (v6[0] === 0x20 && v6[1] === 0x02) return isPublicV4(v6.slice(2, 6));
  // Only global unicast (2000::/3) is public: this excludes unique-local fc00::/7,
  // link-local fe80::/10, site-local fec0::/10, multicast ff00::/8, discard 100::/64 and
  // local-use NAT64 64:ff9b:1::/48.
  if ((v6[0] & 0xe0) !== 0x20) return false;
  return !PRIVATE_V6.some((range) => inRange(v6, range));
}

export interface PinnedRequest {
  headers: Headers;
  body: string;
  signal: AbortSignal;
  /** Extra trusted root certificates (PEM), for tests. */
  caCerts?: string[];
}

const encoder = new TextEncoder();
/** Longest response head read; the body is never read. */
const MAX_HEAD_BYTES = 64 * 1024;

/**
 * POSTs to an https URL over a TCP connection to `address`, the address that passed the
 * check: TLS verifies the certificate for the URL's host name (SNI), but no second DNS lookup
 * happens between check and connect. HTTP/1.1, one request per connection; only the status
 * line and headers of the answer are read (enough for the delivery's outcome).
 */
export async function postPinned(
  url: URL,
  address: string,
  request: PinnedRequest,
): Promise<Response> {
  const { signal } = request;
  signal.throwIfAborted();
  let conn: Deno.Conn | null = null;
  const close = () => {
    try {
      conn?.close();
    } catch {
      // already closed
    }
  };
  // Closing the connection is how a pending connect, read or write is abandoned.
  let abort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    abort = () => {
      close();
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
  });
  aborted.catch(() => {});
  try {
    const connecting = Deno.connect({ hostname: address, port: Number(url.port || 443) });
    connecting.then((c) => signal.aborted && c.close(), () => {});
    const tcp = await Promise.race([connecting, aborted]);
    conn = tcp;
    const tls = await Promise.race([
      Deno.startTls(tcp, { hostname: url.hostname, caCerts: request.caCerts }),
      aborted,
    ]);
    conn = tls;
    let head = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
    for (const [name, value] of request.headers) head += `${name}: ${value}\r\n`;
    const body = encoder.encode(request.body);
    head += `content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
    await Promise.race([writeAll(tls, [encoder.encode(head), body]), aborted]);
    return await Promise.race([readHead(tls), aborted]);
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw err;
  } finally {
    signal.removeEventListener("abort", abort);
    close();
  }
}

async function writeAll(conn: Deno.Conn, parts: Uint8Array[]) {
  for (const part of parts) {
    for (let done = 0; done < part.length;) done += await conn.write(part.subarray(done));
  }
}

/** Reads the answer's status line and headers (skipping 1xx interim answers). */
async function readHead(conn: Deno.Conn): Promise<Response> {
  const decoder = new TextDecoder();
  let text = "";
  const chunk = new Uint8Array(16 * 1024);
  for (;;) {
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) {
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
      if (status >= 100 && status < 200) {
        text = text.slice(end + 4);
        continue;
      }
      if (!(status >= 200 && status <= 599)) {
        throw new Error("The receiver's answer is not valid HTTP/1.1.");
      }
      const headers = new Headers();
      for (const line of lines) {
        const colon = line.indexOf(":");
        try {
          if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
        } catch {
          // A malformed header line does not change the outcome.
        }
      }
      return new Response(null, { status, headers });
    }
    if (text.length > MAX_HEAD_BYTES) throw new Error("The receiver's answer head is too long.");
    const n = await conn.read(chunk);
    if (n === null) throw new Error("The receiver closed the connection without answering.");
    text += decoder.decode(chunk.subarray(0, n), { stream: true });
  }
}
