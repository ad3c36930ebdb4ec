// `deno task bench forms [--seconds S] [--visitors N] [--pool N] [--client http1|fetch]
// [--cpu-prof DIR] [--instances N [--rounds R] [--warmup W]]`: visitors run 10-question sessions
// against one published questionnaire (start + 10 answers, every POST with an Idempotency-Key)
// through the real service, each over its own keep-alive connection, then the same statements
// the service runs (one per request) as raw postgres.js at the same concurrency. Prints
// answers/s, p50/p99 latency, CPU per answer and the ratio; any unexpected status stops it.
// --cpu-prof writes a V8 CPU profile of the service into DIR. Uses a fresh database on
// DATABASE_URL's server (default the local test server); each visitor comes from an address of
// its own. --instances N drives the same visitors through nginx instead (bench/instances.ts),
// R rounds (default 2) of: one instance, N instances, N instances with RATE_LIMIT_SCOPE=instance,
// each measured after W seconds (default 5) unmeasured.

import postgres from "postgres";
import { monthOf, unlimitedShard } from "../lib/forms/plan.ts";
import { connectHttp1 } from "./http1.ts";
import { deploymentPlan, type Measured, planTable, startDeployment } from "./instances.ts";
import { machineLine } from "./machine.ts";

const QUESTIONS = 10;
const ANSWER = "An answer of ordinary length.";

interface Options {
  seconds: number;
  visitors: number;
  pool: number;
  /** Directory for a V8 CPU profile of the service (deno run --cpu-prof), if any. */
  cpuProf: string | null;
  /** The load generator's HTTP client. */
  client: "http1" | "fetch";
  /** Through nginx with this many instances (0: straight to one service). */
  instances: number;
  rounds: number;
  warmup: number;
}

function parseArgs(args: string[]): Options {
  const options: Options = {
    seconds: 20,
    visitors: 32,
    pool: 16,
    cpuProf: null,
    client: "http1",
    instances: 0,
    rounds: 2,
    warmup: 5,
  };
  for (let i = 0; i < args.length; i += 2) {
    if (args[i] === "--client") {
      if (args[i + 1] !== "http1" && args[i + 1] !== "fetch") {
        throw new Error("--client is http1 or fetch");
      }
      options.client = args[i + 1] as Options["client"];
      continue;
    }
    if (args[i] === "--cpu-prof") {
      if (!args[i + 1]) throw new Error("--cpu-prof needs a directory");
      options.cpuProf = args[i + 1];
      continue;
    }
    const value = Number(args[i + 1]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`bad value for ${args[i]}`);
    if (args[i] === "--seconds") options.seconds = value;
    else if (args[i] === "--visitors") options.visitors = value;
    else if (args[i] === "--pool") options.pool = value;
    else if (args[i] === "--instances") options.instances = value;
    else if (args[i] === "--rounds") options.rounds = value;
    else if (args[i] === "--warmup") options.warmup = value;
    else {throw new Error(
        `unknown option ${args[i]} (--seconds, --visitors, --pool, --client, --cpu-prof DIR, ` +
          "--instances, --rounds, --warmup)",
      );}
  }
  return options;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuSeconds(pid: number | "self"): number | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, 100 Hz ticks
  } catch {
    return null;
  }
}

/**
 * CPU seconds used so far by each PostgreSQL backend connected to `database`, when the server
 * runs on this machine (/proc); empty otherwise.
 */
async function backendCpu(admin: postgres.Sql, database: string): Promise<Map<number, number>> {
  const rows = await admin<{ pid: number }[]>`
    select pid from pg_stat_activity where datname = ${database}`;
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const seconds = cpuSeconds(pid);
    if (seconds !== null) cpu.set(pid, seconds);
  }
  return cpu;
}

/** CPU of the service, this process (the load generator) and the database's backends. */
async function cpuNow(admin: postgres.Sql, database: string, service: number | null) {
  return {
    service: service === null ? null : cpuSeconds(service),
    generator: cpuSeconds("self"),
    database: await backendCpu(admin, database),
  };
}

/** CPU per answer between two `cpuNow` readings, as one line. */
function cpuLine(a: Awaited<ReturnType<typeof cpuNow>>, b: typeof a, answers: number): string {
  const ms = (seconds: number) => `${(1000 * seconds / answers).toFixed(2)} ms`;
  const parts: string[] = [];
  if (a.service !== null && b.service !== null) parts.push(`service ${ms(b.service - a.service)}`);
  if (a.generator !== null && b.generator !== null) {
    parts.push(`load generator ${ms(b.generator - a.generator)}`);
  }
  if (b.database.size) {
    let used = 0;
    for (const [pid, seconds] of b.database) used += seconds - (a.database.get(pid) ?? 0);
    parts.push(`database backends ${ms(used)}`);
  }
  return `  CPU per answer (incl. its share of session starts): ${parts.join(", ")}`;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = "/" + name;
  return u.toString();
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function waitForStatus(base: string) {
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(`${base}/status`);
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the service did not start");
}

async function post(base: string, path: string, payload: unknown, headers = {}) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(payload),
  });
  const text = await res.text();
  return { res, text };
}

/** POSTs JSON to the service: the small HTTP/1.1 client (default) or fetch, for comparison. */
type Poster = (path: string, payload: unknown, headers: Record<string, string>) => Promise<
  { status: number; text: string }
>;

async function poster(base: string, client: Options["client"]): Promise<[Poster, () => void]> {
  if (client === "fetch") {
    return [async (path, payload, headers) => {
      const { res, text } = await post(base, path, payload, headers);
      return { status: res.status, text };
    }, () => {}];
  }
  const url = new URL(base);
  const conn = await connectHttp1(url.hostname, Number(url.port));
  return [
    (path, payload, headers) => conn.post(path, JSON.stringify(payload), headers),
    conn.close,
  ];
}

/** Any status but the expected one stops the bench: it measures the normal case only. */
function expect(status: number, reply: { status: number; text: string }, what: string) {
  if (reply.status !== status) {
    throw new Error(
      `${what}: expected ${status}, got ${reply.status}: ${reply.text.slice(0, 300)}`,
    );
  }
}

/**
 * Through the service: returns answer latencies (ms). With `addresses`, each visitor sends an
 * X-Forwarded-For of its own (visitors of a public form come from many addresses).
 */
async function runHttp(
  base: string,
  slug: string,
  questionIds: number[],
  options: Options,
  addresses = false,
) {
  const latencies: number[] = [];
  const deadline = performance.now() + options.seconds * 1000;
  let visitors = 0;
  const visitor = async () => {
    const n = visitors++;
    const from: Record<string, string> = addresses
      ? { "x-forwarded-for": `198.18.${n >> 8}.${n & 255}` }
      : {};
    const [sendAs, close] = await poster(base, options.client);
    const send: Poster = (path, payload, headers) => sendAs(path, payload, { ...from, ...headers });
    try {
      while (performance.now() < deadline) {
        const started = await send(`/api/v1/public/q/${slug}/sessions`, {
          name: "Bench",
          email: "bench@example.com",
          loaded_at: Date.now(),
        }, { "idempotency-key": crypto.randomUUID() });
        expect(201, started, "session start");
        const { sessionId } = JSON.parse(started.text);
        for (const questionId of questionIds) {
          if (performance.now() >= deadline) break;
          const t = performance.now();
          const answered = await send(
            `/api/v1/public/q/${slug}/sessions/${sessionId}/answers`,
            { questionId, answerText: ANSWER },
            { "idempotency-key": crypto.randomUUID() },
          );
          expect(201, answered, "answer");
          latencies.push(performance.now() - t);
        }
      }
    } finally {
      close();
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: options.visitors }, visitor));
  return { latencies, elapsed: (performance.now() - t0) / 1000 };
}

/** The same statements as raw postgres.js, one per request, at the same concurrency. */
async function runRaw(sql: postgres.Sql, questionnaire: Questionnaire, options: Options) {
  const latencies: number[] = [];
  const deadline = performance.now() + options.seconds * 1000;
  // The Idempotency-Key record, as lib/http/idempotency_record.ts builds it (recordJson).
  const keyRecord = (path: string, body: string | null) =>
    sql.json({
      principal: "public",
      route: `POST ${path}`,
      key: crypto.randomUUID(),
      request_hash: "0".repeat(64),
      created_at: new Date().toISOString(),
      status: 201,
      headers: [["content-type", "application/json; charset=utf-8"]],
      body,
    });
  // The plan limits as lib/forms/plan.ts's answerLimits gives them (the workspace is on business).
  const limits = sql.json({ free: 1000, pro: 100000, business: null });
  const visitor = async () => {
    while (performance.now() < deadline) {
      const id = Math.floor(Math.random() * 2 ** 52) + 1;
      // As routes/forms/public.ts: one statement (onda_start_session) with the key's record.
      const started = keyRecord(
        `/api/v1/public/q/${questionnaire.slug}/sessions`,
        JSON.stringify({ sessionId: id }),
      );
      await sql`select onda_start_session(
                  ${id}::bigint, ${questionnaire.slug}::text, 'Bench'::text,
                  'bench@example.com'::text, ${new Date()}::timestamptz,
                  ${new Date()}::timestamptz, ${started}::jsonb,
                  null::text, null::uuid, null::timestamptz
                ) as started`;
      for (const questionId of questionnaire.questionIds) {
        if (performance.now() >= deadline) break;
        const t = performance.now();
        const path = `/api/v1/public/q/${questionnaire.slug}/sessions/${id}/answers`;
        const now = new Date();
        // As routes/forms/public.ts: one statement per answer (onda_record_answer) with the key's
        // record (the service checks the answer against its cached question first).
        const [r] = await sql`
          select outcome, body from onda_record_answer(
            ${id}::bigint, ${questionnaire.slug}::text, ${questionId}::bigint,
            ${ANSWER}::text, ${now}::timestamptz,
            ${keyRecord(path, null)}::jsonb, ${limits}::jsonb,
            ${monthOf(now)}::date, ${unlimitedShard()}::smallint
          )`;
        if (r.outcome !== "ok") throw new Error(`raw answer: ${r.outcome}`);
        latencies.push(performance.now() - t);
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: options.visitors }, visitor));
  return { latencies, elapsed: (performance.now() - t0) / 1000 };
}

interface Questionnaire {
  id: string;
  slug: string;
  workspaceId: string;
  questionIds: number[];
}

async function setUp(base: string): Promise<Questionnaire> {
  const registered = await post(base, "/api/v1/auth/register", {
    email: "bench@example.com",
    password: "bench password",
    name: "Bench",
  });
  if (registered.res.status !== 201) throw new Error(`register: ${registered.text}`);
  const cookie = /service_token=[^;]+/.exec(registered.res.headers.get("set-cookie") ?? "")![0];
  const workspaceId = JSON.parse(registered.text).workspaces[0].id;
  const questions = Array.from({ length: QUESTIONS }, (_, i) => ({
    title: `Question ${i + 1}`,
    type: "text",
  }));
  const created = await post(base, "/api/v1/questionnaires", {
    title: "Bench",
    questions,
  }, { cookie });
  const q = JSON.parse(created.text);
  const published = await post(base, `/api/v1/questionnaires/${q.id}/publish`, undefined, {
    cookie,
  });
  if (published.res.status !== 200) throw new Error(`publish: ${published.text}`);
  return {
    id: q.id,
    slug: q.slug,
    workspaceId,
    questionIds: q.questions.map((x: { id: number }) => x.id),
  };
}

function report(label: string, answers: number, elapsed: number, latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const rate = answers / elapsed;
  console.log(
    `${label.padEnd(22)} ${answers} answers in ${elapsed.toFixed(1)} s = ${
      rate.toFixed(0)
    } answers/s; p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p99 ${
      percentile(sorted, 0.99).toFixed(2)
    } ms`,
  );
  return rate;
}

export async function run(args: string[]) {
  const options = parseArgs(args);
  if (options.instances) return await runInstances(options);
  const server = Deno.env.get("DATABASE_URL") || "postgres://postgres@127.0.0.1:5432/test";
  const name = `onda_bench_forms_${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
  const admin = postgres(withDatabase(server, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(server, name);
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      ...(options.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProf}`] : []),
      new URL("../main.ts", import.meta.url).pathname,
    ],
    env: {
      DATABASE_URL: url,
      PORT: String(port),
      HOST: "127.0.0.1",
      DEFAULT_PLAN: "business",
      RATE_LIMIT_PUBLIC_PER_MINUTE: "100000000",
      // Each visitor from an address of its own, as on the web: from one address they would
      // all queue on that address's rate-limit row.
      TRUST_PROXY: "1",
      DB_POOL_MAX: String(options.pool),
      WEBHOOK_WORKER: "0",
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForStatus(base);
    const questionnaire = await setUp(base);
    console.log(
      `forms bench: ${options.visitors} visitors, ${options.seconds} s each phase, ` +
        `${QUESTIONS}-question sessions, pool ${options.pool}, database ${name}`,
    );
    const http0 = await cpuNow(admin, name, child.pid);
    const http = await runHttp(base, questionnaire.slug, questionnaire.questionIds, options, true);
    const http1 = await cpuNow(admin, name, child.pid);
    const httpRate = report("service (HTTP)", http.latencies.length, http.elapsed, http.latencies);
    console.log(cpuLine(http0, http1, http.latencies.length));
    const sql = postgres(url, { max: options.pool, onnotice: () => {} });
    const raw0 = await cpuNow(admin, name, null);
    const raw = await runRaw(sql, questionnaire, options);
    const raw1 = await cpuNow(admin, name, null);
    await sql.end();
    const rawRate = report("raw postgres.js", raw.latencies.length, raw.elapsed, raw.latencies);
    console.log(cpuLine(raw0, raw1, raw.latencies.length));
    console.log(`ratio service/raw: ${(100 * httpRate / rawRate).toFixed(0)} %`);
    console.log("targets: >= 2000 answers/s, >= 50 % of raw, p99 <= 30 ms");
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** --instances: the visitors through nginx, one instance against N, shared limits or not. */
async function runInstances(options: Options) {
  const server = Deno.env.get("DATABASE_URL") || "postgres://postgres@127.0.0.1:5432/test";
  const name = `onda_bench_forms_${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
  const admin = postgres(withDatabase(server, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const env = {
    DATABASE_URL: withDatabase(server, name),
    DEFAULT_PLAN: "business",
    RATE_LIMIT_PUBLIC_PER_MINUTE: "100000000",
    DB_POOL_MAX: String(options.pool),
    WEBHOOK_WORKER: "0",
    TRUST_PROXY: "1",
  };
  console.log(
    `forms bench through nginx: ${options.visitors} visitors (one address each), ` +
      `${options.seconds} s per run after ${options.warmup} s unmeasured, ${options.rounds} ` +
      `rounds, pool ${options.pool} per instance, database ${name}`,
  );
  console.log(await machineLine(admin));
  const results: Measured[] = [];
  let questionnaire: Questionnaire | null = null;
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const plan of deploymentPlan(options.instances)) {
        const deployment = await startDeployment(
          plan.instances,
          { ...env, RATE_LIMIT_SCOPE: plan.scope },
          { path: "/status" },
          true,
        );
        try {
          const base = `http://127.0.0.1:${deployment.port}`;
          questionnaire ??= await setUp(base);
          const { slug, questionIds } = questionnaire;
          if (options.warmup) {
            await runHttp(base, slug, questionIds, { ...options, seconds: options.warmup }, true);
          }
          const cpu = async () => {
            const reading = await cpuNow(admin, name, null);
            const services = deployment.pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);
            return { ...reading, service: services };
          };
          const before = await cpu();
          const http = await runHttp(base, slug, questionIds, options, true);
          const after = await cpu();
          const sorted = [...http.latencies].sort((a, b) => a - b);
          results.push({
            label: plan.label,
            rate: report(plan.label, http.latencies.length, http.elapsed, http.latencies),
            p50: percentile(sorted, 0.5),
            p99: percentile(sorted, 0.99),
          });
          console.log(cpuLine(before, after, http.latencies.length));
        } finally {
          await deployment.stop();
        }
      }
    }
    console.log("");
    console.log(planTable("answers/s (each round)", results));
    console.log(await machineLine(admin));
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
