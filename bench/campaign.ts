// `deno task bench campaign`: the hostile-client campaign (issue 30, item 9). Two parts:
// 1. the fuzz test's generator over every route (tests/http/fuzz_test.ts, run with --runs);
// 2. raw-socket cases the fuzz cannot send through fetch: broken framing, cut bodies, bodies
//    and heads sent slowly, bodies that stall past REQUEST_BODY_TIMEOUT_MS, all while
//    --idle connections stay open doing nothing.
// Prints the cases, the time and the violations by kind: 5xx, envelope violations (an error
// from the service that is not the envelope) and hangs (no answer and no close in time).
//
//   deno task bench campaign [--fuzz 950000] [--raw 50000] [--idle 1000] [--seed 30]
// DATABASE_URL as for the tests (unset: PGlite). Figures: bench/README.md.

import fc from "fast-check";
import { allRoutes } from "../routes/index.ts";
import { startTestService, type TestService } from "../tests/_server.ts";
import { connectRaw, cutPost, readUntilClosed, send } from "../tests/_raw_http.ts";
import { registerUser } from "../tests/forms/_forms.ts";

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
}

const BODY_TIMEOUT_MS = 1000;
/** A raw case without an answer or a close by then is a hang. */
const HANG_MS = BODY_TIMEOUT_MS + 10_000;
const CONCURRENCY = 32;

interface Tally {
  cases: number;
  fiveHundreds: number;
  envelope: number;
  hangs: number;
  /** Refused by the HTTP layer before the service saw a request (400 without the envelope). */
  framing: number;
  /** Closed by the server or the client's own cut without an answer. */
  unanswered: number;
  statuses: Map<string, number>;
  examples: string[];
}

/** The raw answer (null: none and no close in time), and whether the request was a HEAD. */
type RawAnswer = { text: string | null; head?: boolean };
type RawCase = (target: { hostname: string; port: number }) => Promise<RawAnswer>;

const methods = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD");
const paths = fc.oneof(
  fc.constantFrom(...allRoutes.map((r) => r.path.replace(/\{[^}]+\}/g, "x1"))),
  fc.constantFrom("/", "*", "http://evil.test/api/v1/ads", "/api/v1/%zz", "/api/v1/\u0000"),
  fc.string({ maxLength: 300 }).map((s) => "/api/v1/" + encodeURIComponent(s)),
);
const versions = fc.constantFrom("HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/9", "http/1.1", "");
const framingHeaders = fc.array(
  fc.oneof(
    fc.constantFrom(
      "Content-Length: 5",
      "Content-Length: -1",
      "Content-Length: 99999999999999999999",
      "Content-Length: 5, 6",
      "Content-Length: 0x10",
      "Transfer-Encoding: chunked",
      "Transfer-Encoding: gzip, chunked",
      "Transfer-Encoding: identity",
      "Content-Type: application/json",
      "Content-Type: application/json; charset=utf-16",
      "Expect: 100-continue",
      "Host:",
      " folded: line",
      "Bad Name: x",
      "X-Nul: a\u0000b",
      "Authorization: Bearer onda_ads_" + "x".repeat(40),
      "X-Workspace-Id: ../../etc",
      "X-Forwarded-For: 1.2.3.4, 5.6.7.8",
    ),
    fc.string({ maxLength: 200 }).map((s) => `X-Junk: ${s.replace(/[\r\n]/g, "")}`),
    fc.constant(`X-Long: ${"a".repeat(70_000)}`),
  ),
  { maxLength: 8 },
);
const framingBodies = fc.oneof(
  fc.constant(""),
  fc.constantFrom('{"a":1}', "0\r\n\r\n", "5\r\nhello\r\n0\r\n\r\n", "zz\r\n", "{", "\u0000\u0000"),
  fc.string({ maxLength: 500 }),
);

/** A request of broken or odd framing, sent whole, with Connection: close. */
const framing = fc.tuple(methods, paths, versions, framingHeaders, framingBodies).map(
  ([method, path, version, headers, body]): RawCase => async (target) => {
    const conn = await connectRaw(target);
    const head = `${method} ${path} ${version}\r\nHost: bench\r\n` +
      headers.map((h) => h + "\r\n").join("") + "Connection: close\r\n\r\n";
    await send(conn, head + body).catch(() => {});
    return { text: await answerOf(conn), head: method === "HEAD" };
  },
);

/** A JSON POST whose body stops short, then the client closes its side. */
const cutBody = fc.integer({ min: 0, max: 199 }).map((sent): RawCase => async (target) => {
  const conn = await connectRaw(target);
  await send(conn, cutPost("/api/v1/auth/login", 200, sent));
  await conn.closeWrite().catch(() => {});
  return { text: await answerOf(conn) };
});

/** A JSON POST whose body stalls past the body deadline: 408 expected, never 5xx. */
const stalledBody = fc.integer({ min: 0, max: 199 }).map((sent): RawCase => async (target) => {
  const conn = await connectRaw(target);
  await send(conn, cutPost("/api/v1/auth/login", 200, sent));
  return { text: await answerOf(conn, true) };
});

/** A whole request whose head or body arrives in pieces, each well within the deadlines. */
const slowRequest = fc.tuple(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 10, max: 150 }))
  .map(([pieces, pauseMs]): RawCase => async (target) => {
    const conn = await connectRaw(target);
    const body = JSON.stringify({ email: "nobody@example.com", password: "not-the-password" });
    const text = "POST /api/v1/auth/login HTTP/1.1\r\nHost: bench\r\n" +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
      `Connection: close\r\n\r\n${body}`;
    const size = Math.ceil(text.length / pieces);
    for (let at = 0; at < text.length; at += size) {
      await send(conn, text.slice(at, at + size)).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    return { text: await answerOf(conn) };
  });

const rawCase: fc.Arbitrary<RawCase> = fc.oneof(
  { arbitrary: framing, weight: 6 },
  { arbitrary: cutBody, weight: 2 },
  { arbitrary: slowRequest, weight: 1 },
  { arbitrary: stalledBody, weight: 1 },
);

/** Reads the answer (the connection closes after it, or `stalls` leaves it open) as raw text. */
async function answerOf(conn: Deno.Conn, stalls = false): Promise<string | null> {
  const outcome = await readUntilClosed(conn, HANG_MS, stalls);
  if (!outcome.text && !outcome.closed) return null;
  return outcome.text;
}

/** Files one raw answer under its kind. */
function judge(tally: Tally, { text, head: headRequest }: RawAnswer) {
  tally.cases++;
  if (text === null) {
    tally.hangs++;
    return;
  }
  if (!text) {
    tally.unanswered++;
    return;
  }
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? "garbled";
  tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
  const [head, ...rest] = text.split("\r\n\r\n");
  const fromService = /\r\nx-trace-id: /i.test(head);
  if (status.startsWith("5") || status === "garbled") {
    tally.fiveHundreds++;
    if (tally.examples.length < 10) tally.examples.push(text.slice(0, 300));
  } else if (status >= "400" && !fromService) {
    tally.framing++;
  } else if (status >= "400" && !headRequest) {
    try {
      const error = JSON.parse(rest.join("\r\n\r\n")).error;
      if (typeof error?.code !== "string" || typeof error?.trace_id !== "string") {
        throw new Error("no envelope");
      }
    } catch {
      tally.envelope++;
      if (tally.examples.length < 10) tally.examples.push(text.slice(0, 300));
    }
  }
}

async function rawCampaign(service: TestService, total: number, idle: number, seed: number) {
  const target = { hostname: "127.0.0.1", port: Number(new URL(service.url).port) };
  const held: Deno.Conn[] = [];
  for (let i = 0; i < idle; i++) held.push(await connectRaw(target));
  const tally: Tally = {
    cases: 0,
    fiveHundreds: 0,
    envelope: 0,
    hangs: 0,
    framing: 0,
    unanswered: 0,
    statuses: new Map(),
    examples: [],
  };
  const cases = fc.sample(rawCase, { numRuns: total, seed });
  const started = performance.now();
  let next = 0;
  let lastReport = started;
  const owner = await registerUser(service);
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < cases.length) {
        const run = cases[next++];
        judge(tally, await run(target).catch((err) => ({ text: `HTTP/1.1 599 ${err}\r\n\r\n` })));
        if (performance.now() - lastReport > 10_000) {
          lastReport = performance.now();
          // Another client meanwhile: its answer time is part of the figures.
          const sent = performance.now();
          const res = await service.fetch("/api/v1/questionnaires", { headers: owner.headers() });
          await res.body?.cancel();
          console.log(
            `  raw: ${tally.cases} of ${total}, ${
              Math.round(tally.cases / ((performance.now() - started) / 1000))
            }/s; another client: ${res.status} in ${Math.round(performance.now() - sent)} ms`,
          );
        }
      }
    }));
  } finally {
    for (const conn of held) {
      try {
        conn.close();
      } catch {
        // closed by the server
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const statuses = [...tally.statuses].sort().map(([s, n]) => `${s}:${n}`).join(" ");
  console.log(
    `raw: ${tally.cases} cases in ${seconds.toFixed(1)} s with ${idle} idle connections held; ` +
      `5xx ${tally.fiveHundreds}, envelope violations ${tally.envelope}, hangs ${tally.hangs}; ` +
      `refused by the HTTP layer ${tally.framing}, closed unanswered ${tally.unanswered}\n` +
      `  statuses ${statuses}`,
  );
  for (const example of tally.examples) console.log("  e.g. " + JSON.stringify(example));
  return tally.fiveHundreds + tally.envelope + tally.hangs;
}

export async function run(args: string[]) {
  const fuzz = option(args, "fuzz", 950_000);
  const raw = option(args, "raw", 50_000);
  const idle = option(args, "idle", 1000);
  const seed = option(args, "seed", 30);
  console.log(`campaign: ${fuzz} fuzz cases, ${raw} raw cases, seed ${seed}`);
  let violations = 0;
  if (fuzz > 0) {
    const fuzzRun = new Deno.Command(Deno.execPath(), {
      args: [
        "test",
        "--allow-all",
        new URL("../tests/http/fuzz_test.ts", import.meta.url).pathname,
        "--",
        "--runs",
        String(fuzz),
        "--seed",
        String(seed),
      ],
      stdout: "inherit",
      stderr: "inherit",
    });
    const { success } = await fuzzRun.output();
    if (!success) violations++;
  }
  if (raw > 0) {
    const service = await startTestService({
      env: {
        REQUEST_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
        RATE_LIMIT_PUBLIC_PER_MINUTE: "100000000",
        RATE_LIMIT_USER_PER_MINUTE: "100000000",
      },
    });
    try {
      violations += await rawCampaign(service, raw, idle, seed);
    } finally {
      await service.close();
    }
  }
  console.log(violations ? `campaign: ${violations} violations (above)` : "campaign: 0 violations");
}
