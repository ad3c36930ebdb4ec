// `deno task bench bots [--solves N] [--difficulty D] [--starts M]`: what bot protection
// (issue 31) costs a visitor and the server.
//   solve:  headless Chromium solves N proof-of-work challenges of difficulty D (default: the
//           service's) with the embed's own solver (its solvePow, taken from the /embed.js the
//           service serves), each in a Worker built from a Blob as the embed does -> median, p95;
//   verify: the service's check of a token and its solution, in process -> microseconds each;
//   start:  M session starts, one at a time over one keep-alive connection, on a protected and
//           an unprotected questionnaire in alternation (tokens read and solved beforehand,
//           minimum fill time 0) -> latency of each kind, and the service's CPU time per start.
// The service runs in this process on a fresh database (DATABASE_URL, else embedded).

import { launchChromium } from "../tests/embed/_chromium.ts";
import { PG_FALLBACK_URL, startTestService } from "../tests/_server.ts";
import postgres from "postgres";
import { machineLine } from "./machine.ts";
import { publishedQuestionnaire, registerUser } from "../tests/forms/_forms.ts";
import {
  formTokenKey,
  issueFormToken,
  POW_DIFFICULTY,
  proofHolds,
  verifyFormToken,
} from "../lib/forms/form_token.ts";
import { connectHttp1 } from "./http1.ts";
import { option, percentile } from "./webhooks.ts";
import process from "node:process";

function summary(xs: number[], unit: string, digits = 1): string {
  const sorted = [...xs].sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const f = (x: number) => `${x.toFixed(digits)} ${unit}`;
  return `median ${f(percentile(sorted, 50))}, p95 ${f(percentile(sorted, 95))}, mean ${
    f(mean)
  }, max ${f(sorted[sorted.length - 1])} (${xs.length})`;
}

/** The text of the embed's function `name` (from its "function name(" to its closing brace). */
function functionText(script: string, name: string): string {
  const start = script.indexOf(`function ${name}(`);
  if (start < 0) throw new Error(`embed.js has no function ${name}`);
  let depth = 0;
  for (let i = script.indexOf("{", start); i < script.length; i++) {
    if (script[i] === "{") depth++;
    if (script[i] === "}" && --depth === 0) return script.slice(start, i + 1);
  }
  throw new Error(`function ${name} of embed.js does not end`);
}

export async function run(args: string[]) {
  const solves = option(args, "solves", 60);
  const difficulty = option(args, "difficulty", POW_DIFFICULTY);
  const starts = option(args, "starts", 400);
  const reference = postgres(PG_FALLBACK_URL, { max: 1 });
  console.log(await machineLine(reference));
  await reference.end();
  const service = await startTestService({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "1000000" } });
  try {
    // solve
    const script = await (await service.fetch("/embed.js")).text();
    const solver = functionText(script, "solvePow");
    const host = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () =>
        new Response("<!doctype html><title>bench</title>", {
          headers: { "content-type": "text/html" },
        }),
    );
    const browser = await launchChromium();
    try {
      // A loopback page is a secure context, as the embed needs.
      const page = await browser.open(`http://127.0.0.1:${host.addr.port}/`);
      const times = await page.evaluate<number[]>(`(async () => {
        const source = "onmessage=function(e){(" + ${JSON.stringify(solver)} +
          ")(e.data.challenge,e.data.difficulty).then(function(n){postMessage(n)})}";
        const times = [];
        for (let i = 0; i < ${solves}; i++) {
          const challenge = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
            .replace(/[+/=]/g, "x").slice(0, 22);
          const started = performance.now();
          const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
          const worker = new Worker(url);
          URL.revokeObjectURL(url);
          await new Promise((resolve) => {
            worker.onmessage = resolve;
            worker.postMessage({ challenge, difficulty: ${difficulty} });
          });
          worker.terminate();
          times.push(performance.now() - started);
        }
        return times;
      })()`);
      const hashesPerSecond = (2 ** difficulty) / (times.reduce((a, b) =>
        a + b, 0) / times.length) *
        1000;
      console.log(
        `solve, headless Chromium, difficulty ${difficulty} (a Worker each, embed's solver): ` +
          `${summary(times, "ms", 0)}; about ${Math.round(hashesPerSecond).toLocaleString("en")} ` +
          "digests/s",
      );
    } finally {
      await browser.close();
      await host.shutdown();
    }

    // verify
    const secret = formTokenKey(service.app.secretKey);
    const now = new Date();
    const form = { id: crypto.randomUUID(), minFillSeconds: 0 };
    const tokens = Array.from({ length: 200 }, () => issueFormToken(secret, form, now));
    const nonces = tokens.map((t) => {
      for (let n = 0;; n++) if (proofHolds(t.challenge, String(n), t.difficulty)) return String(n);
    });
    const rounds = 50;
    let started = performance.now();
    for (let r = 0; r < rounds; r++) {
      tokens.forEach((t, i) => verifyFormToken(secret, t.token, nonces[i], now));
    }
    const verifyUs = (performance.now() - started) * 1000 / (rounds * tokens.length);
    started = performance.now();
    for (let r = 0; r < rounds * tokens.length; r++) issueFormToken(secret, form, now);
    const issueUs = (performance.now() - started) * 1000 / (rounds * tokens.length);
    console.log(
      `verify (signature, expiry, proof of work, minimum time): ${verifyUs.toFixed(1)} µs per ` +
        `token; issue: ${issueUs.toFixed(1)} µs per token`,
    );

    // start
    const owner = await registerUser(service);
    const questions = [{ title: "Comment", type: "text" as const }];
    const guarded = await publishedQuestionnaire(service, owner, questions, {
      bot_protection: true,
      min_fill_seconds: 0,
    });
    const open = await publishedQuestionnaire(service, owner, questions);
    const solved: string[] = [];
    for (let i = 0; i < starts / 2; i++) {
      const res = await service.fetch(`/api/v1/public/q/${guarded.slug}`);
      const { form_token: t } = await res.json();
      let n = 0;
      while (!proofHolds(t.challenge, String(n), t.difficulty)) n++;
      solved.push(JSON.stringify({ token: t.token, nonce: String(n) }));
    }
    const url = new URL(service.url);
    const conn = await connectHttp1(url.hostname, Number(url.port));
    const latency: Record<"protected" | "unprotected", number[]> = {
      protected: [],
      unprotected: [],
    };
    const cpu: Record<"protected" | "unprotected", number> = { protected: 0, unprotected: 0 };
    const loadedAt = service.clock().getTime();
    for (let i = 0; i < starts; i++) {
      const kind = i % 2 ? "protected" : "unprotected";
      const extra = kind === "protected"
        ? (({ token, nonce }) => ({ form_token: token, pow_nonce: nonce }))(
          JSON.parse(solved[(i - 1) / 2]),
        )
        : {};
      const payload = JSON.stringify({
        name: "Bench",
        email: "bench@example.com",
        loaded_at: loadedAt,
        ...extra,
      });
      const slug = kind === "protected" ? guarded.slug : open.slug;
      const cpuBefore = process.cpuUsage();
      const t0 = performance.now();
      const res = await conn.post(`/api/v1/public/q/${slug}/sessions`, payload);
      latency[kind].push(performance.now() - t0);
      const spent = process.cpuUsage(cpuBefore);
      cpu[kind] += spent.user + spent.system;
      if (res.status !== 201) throw new Error(`start answered ${res.status}: ${res.text}`);
    }
    conn.close();
    for (const kind of ["unprotected", "protected"] as const) {
      console.log(
        `start, ${kind}: ${summary(latency[kind], "ms", 2)}; CPU of this process (service and ` +
          `client${service.app.config.databaseUrl ? "" : " and embedded database"}) ${
            (cpu[kind] / (starts / 2)).toFixed(0)
          } µs per start`,
      );
    }
  } finally {
    await service.close();
  }
}
