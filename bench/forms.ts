// `deno task bench forms [--seconds S] [--visitors N]`: visitors run 10-question sessions
// against one published questionnaire (start + 10 answers, every POST with an
// Idempotency-Key) through the real service, then the same statements run as raw postgres.js
// transactions at the same concurrency. Prints answers/s, p50/p99 latency and the ratio.
// Uses a fresh database on DATABASE_URL's server (default the local test server).

import postgres from "postgres";

const QUESTIONS = 10;

interface Options {
  seconds: number;
  visitors: number;
  pool: number;
}

function parseArgs(args: string[]): Options {
  const options: Options = { seconds: 20, visitors: 32, pool: 16 };
  for (let i = 0; i < args.length; i += 2) {
    const value = Number(args[i + 1]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`bad value for ${args[i]}`);
    if (args[i] === "--seconds") options.seconds = value;
    else if (args[i] === "--visitors") options.visitors = value;
    else if (args[i] === "--pool") options.pool = value;
    else throw new Error(`unknown option ${args[i]} (--seconds, --visitors, --pool)`);
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

/** Through the service: returns answer latencies (ms) and the count of answers stored. */
async function runHttp(base: string, slug: string, questionIds: number[], options: Options) {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const visitor = async () => {
    while (performance.now() < deadline) {
      const started = await post(base, `/api/v1/public/q/${slug}/sessions`, {
        name: "Bench",
        email: "bench@example.com",
        loaded_at: Date.now(),
      }, { "idempotency-key": crypto.randomUUID() });
      if (started.res.status !== 201) {
        errors++;
        continue;
      }
      const { sessionId } = JSON.parse(started.text);
      for (const questionId of questionIds) {
        if (performance.now() >= deadline) break;
        const t = performance.now();
        const { res } = await post(
          base,
          `/api/v1/public/q/${slug}/sessions/${sessionId}/answers`,
          { questionId, answerText: "An answer of ordinary length." },
          { "idempotency-key": crypto.randomUUID() },
        );
        if (res.status === 201) latencies.push(performance.now() - t);
        else errors++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: options.visitors }, visitor));
  return { latencies, errors, elapsed: (performance.now() - t0) / 1000 };
}

/** The same statements as raw postgres.js transactions, at the same concurrency. */
async function runRaw(url: string, questionnaire: Questionnaire, options: Options) {
  const sql = postgres(url, { max: options.pool, onnotice: () => {} });
  const latencies: number[] = [];
  const deadline = performance.now() + options.seconds * 1000;
  const route = (path: string) => `POST ${path}`;
  // The Idempotency-Key record, as lib/idempotency.ts builds it for the public routes.
  const keyRecord = (path: string, payload: unknown) => {
    const now = new Date();
    return sql.json({
      principal: "public",
      route: route(path),
      key: crypto.randomUUID(),
      request_hash: "h",
      created_at: now.toISOString(),
      status: 201,
      headers: [["content-type", "application/json; charset=utf-8"]],
      body: JSON.stringify(payload),
      expired_before: new Date(now.getTime() - 24 * 3600 * 1000).toISOString(),
      abandoned_before: new Date(now.getTime() - 60 * 1000).toISOString(),
    });
  };
  const visitor = async () => {
    while (performance.now() < deadline) {
      const id = Math.floor(Math.random() * 2 ** 52) + 1;
      // As routes/public.ts: one statement (onda_start_session) with the key's record.
      const started = keyRecord(`/api/v1/public/q/${questionnaire.slug}/sessions`, {
        sessionId: id,
      });
      await sql`select onda_start_session(
                  ${id}::bigint, ${questionnaire.slug}::text, 'Bench'::text,
                  'bench@example.com'::text, now(), now(), ${started}::jsonb
                ) as started`;
      for (const [i, questionId] of questionnaire.questionIds.entries()) {
        if (performance.now() >= deadline) break;
        const t = performance.now();
        const last = i === questionnaire.questionIds.length - 1;
        const path = `/api/v1/public/q/${questionnaire.slug}/sessions/${id}/answers`;
        // As routes/public.ts: the session read (no transaction), then every write in one
        // statement (onda_record_answer) with the Idempotency-Key record.
        const [s] = await sql`select s.workspace_id, s.answered, s.total, s.last_sequence, w.plan,
                   qu.id, qu.type, qu.required, qu.options, qu.position,
                   exists (select 1 from answers a where a.session_id = s.id
                           and a.question_id = ${questionId}) as already,
                   case when s.answered + 1 >= s.total then (
                     select coalesce(jsonb_agg(jsonb_build_object('question_id',
                       a.question_id, 'answer', a.answer, 'position', p.position)), '[]')
                     from answers a join questions p on p.id = a.question_id
                     where a.session_id = s.id) end as prior
                 from sessions s join questionnaires q on q.id = s.questionnaire_id
                 join workspaces w on w.id = s.workspace_id
                 left join questions qu on qu.id = ${questionId}
                   and qu.questionnaire_id = s.questionnaire_id
                 where s.id = ${id} and q.slug = ${questionnaire.slug} and q.state <> 'deleted'`;
        const events = [{ type: "answer.submitted", data: { session_id: id } }];
        if (last) events.push({ type: "session.completed", data: { session_id: id } });
        const now = new Date();
        await sql`select onda_record_answer(
                    ${id}::bigint, ${s.last_sequence}::integer, ${questionId}::bigint,
                    ${questionnaire.id}::uuid, ${questionnaire.workspaceId}::uuid,
                    'An answer of ordinary length.'::text, ${now}::timestamptz,
                    ${i + 1}::integer, ${last}::boolean, ${sql.json(events)}::jsonb,
                    ${keyRecord(path, { success: true })}::jsonb, date_trunc('month', now())::date,
                    ${1 + Math.floor(Math.random() * 64)}::smallint, ${null}::integer
                  ) as outcome`;
        latencies.push(performance.now() - t);
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: options.visitors }, visitor));
  const elapsed = (performance.now() - t0) / 1000;
  await sql.end();
  return { latencies, elapsed };
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
  const server = Deno.env.get("DATABASE_URL") || "postgres://postgres@127.0.0.1:5432/test";
  const name = `onda_bench_forms_${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
  const admin = postgres(withDatabase(server, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(server, name);
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", new URL("../main.ts", import.meta.url).pathname],
    env: {
      DATABASE_URL: url,
      PORT: String(port),
      HOST: "127.0.0.1",
      DEFAULT_PLAN: "business",
      RATE_LIMIT_PUBLIC_PER_MINUTE: "100000000",
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
    const [server0, client0] = [cpuSeconds(child.pid), cpuSeconds("self")];
    const http = await runHttp(base, questionnaire.slug, questionnaire.questionIds, options);
    const [server1, client1] = [cpuSeconds(child.pid), cpuSeconds("self")];
    const httpRate = report("service (HTTP)", http.latencies.length, http.elapsed, http.latencies);
    if (server0 !== null && server1 !== null && client0 !== null && client1 !== null) {
      const per = (a: number, b: number) => (1000 * (b - a) / http.latencies.length).toFixed(2);
      console.log(
        `  CPU per answer (incl. its share of session starts): service ${
          per(server0, server1)
        } ms, load generator ${per(client0, client1)} ms`,
      );
    }
    if (http.errors) console.log(`  non-2xx answers or sessions: ${http.errors}`);
    const raw = await runRaw(url, questionnaire, options);
    const rawRate = report("raw postgres.js", raw.latencies.length, raw.elapsed, raw.latencies);
    console.log(`ratio service/raw: ${(100 * httpRate / rawRate).toFixed(0)} %`);
    console.log("targets: >= 2000 answers/s, >= 50 % of raw, p99 <= 30 ms");
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
