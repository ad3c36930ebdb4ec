// `deno task bench responses`: reading and erasing what respondents gave, on one questionnaire
// of 10 questions with 100,000 sessions and 1,000,000 answers (and their 1,100,000 events):
// pages of 100 sessions with their answers and the summary, each from 8 clients over keep-alive
// HTTP/1.1 (bench/http1.ts), and erasures of a person with 100 sessions. Prints p50/p99 and the
// erasure times. Its targets are in bench/README.md.
//   options: --sessions N (default 100000), --clients C (default 8), --seconds S (default 10),
//   --keep (PostgreSQL: keep the scratch database and print its URL), --reuse URL (measure on a
//   kept one; people it erased already count 0 sessions), --only
//   page,summary,period,periods,erasure (the parts to measure, default all; periods: random
//   since/until from 8 clients).
//   database: DATABASE_URL (a scratch database is created and dropped) or embedded PGlite.
// The service runs in this process, beside the load clients (they cost it little).

import { loadConfig } from "../lib/config.ts";
import { openDb, type Sql } from "../lib/db/db.ts";
import { startService } from "../lib/server.ts";
import { freshDatabase } from "../tests/_server.ts";
import { connectHttp1 } from "./http1.ts";
import { machineLine } from "./machine.ts";

const QUESTIONS = [
  { title: "Plan", type: "choice", options: ["Free", "Pro", "Business"] },
  { title: "Score", type: "rating" },
  { title: "Team size", type: "number" },
  { title: "Comment", type: "text" },
  { title: "Channel", type: "choice", options: ["Radio", "A friend", "Search", "Other"] },
  { title: "Support", type: "rating" },
  { title: "Seats", type: "number" },
  { title: "Wish", type: "text" },
  { title: "Region", type: "choice", options: ["North", "South"] },
  { title: "Ease", type: "rating" },
];
/** People erased by the bench: sessions g with g % 1000 below this, 1 in 1,000 each. */
const PEOPLE = 5;

function option(args: string[], name: string, fallback: string): string {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

export async function run(args: string[]) {
  const sessions = Number(option(args, "sessions", "100000"));
  const clients = Number(option(args, "clients", "8"));
  const seconds = Number(option(args, "seconds", "10"));
  const reuse = args.includes("--reuse") ? option(args, "reuse", "") : null;
  const only = option(args, "only", "page,summary,period,periods,erasure").split(",");
  const database = reuse
    ? { url: reuse, drop: () => Promise.resolve() }
    : await freshDatabase(Deno.env.get("DATABASE_URL") || null);
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: database.url ?? undefined,
    DATA_DIR: "memory://",
    RATE_LIMIT_USER_PER_MINUTE: "100000000",
    DEFAULT_PLAN: "business",
  });
  const db = await openDb({ databaseUrl: database.url, dataDir: "memory://", poolMax: 10 });
  const service = await startService({ config, db, log: () => {}, startWorkers: false });
  console.log(
    `responses: ${sessions} sessions x ${QUESTIONS.length} questions, ${clients} clients, ` +
      `${database.url ? "PostgreSQL" : "embedded PGlite"}`,
  );
  try {
    if (db.raw.postgres) console.log(await machineLine(db.raw.postgres));
    const login = await fetch(`${service.url}/api/v1/auth/${reuse ? "login" : "register"}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email: "bench@example.com",
        password: "bench-pass-123",
        ...(reuse ? {} : { name: "Bench" }),
      }),
    });
    const cookie = /service_token=[^;]+/.exec(login.headers.get("set-cookie")!)![0];
    const workspaceId = (await login.json()).workspaces[0].id;
    let form: { id: string };
    if (reuse) {
      [form] = await db.sql<{ id: string }>`select id from questionnaires where title = 'Bench'`;
    } else {
      const created = await fetch(`${service.url}/api/v1/questionnaires`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ title: "Bench", questions: QUESTIONS }),
      });
      form = await created.json();
      const t0 = performance.now();
      await fill(db.sql, form.id, workspaceId, sessions);
      console.log(`  data written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }

    const { hostname, port } = new URL(service.url);
    const pgSql = db.raw.postgres ? db.sql : null;
    const headers = { cookie };
    const base = `/api/v1/questionnaires/${form.id}`;
    // Each client walks the list with its cursor, from the first page again every 20 pages.
    if (only.includes("page")) {
      await load(
        "page of 100 sessions with answers",
        pgSql,
        clients,
        seconds,
        hostname,
        port,
        () => {
          let cursor: string | null = null;
          let depth = 0;
          return async (conn) => {
            const at: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
            const res = await conn.get(`${base}/sessions?limit=100${at}`, headers);
            if (res.status !== 200) throw new Error(`sessions: ${res.status} ${res.text}`);
            // Parsed whole once per walk: parsing every page cost this process, which shares
            // the cores with the service, as much as the service spent on it. The envelope's
            // cursor comes last, and an unescaped `"next_cursor":` occurs nowhere else.
            if (depth === 0) {
              const page = JSON.parse(res.text);
              if (page.data.length !== 100) throw new Error(`a page of ${page.data.length}`);
            }
            const tail = JSON.parse("{" + res.text.slice(res.text.lastIndexOf('"next_cursor":')));
            cursor = ++depth % 20 === 0 ? null : tail.next_cursor;
            if (cursor === null) depth = 0;
          };
        },
      );
    }
    if (only.includes("summary")) {
      await load("summary", pgSql, clients, seconds, hostname, port, () => async (conn) => {
        const res = await conn.get(`${base}/summary`, headers);
        if (res.status !== 200) throw new Error(`summary: ${res.status} ${res.text}`);
      });
    }
    if (only.includes("period")) {
      // It reads the answers of the period: one client, as 8 would only queue behind each other.
      await load(
        "summary, since/until of half, 1 client",
        pgSql,
        1,
        seconds,
        hostname,
        port,
        () => {
          const since = new Date(Date.UTC(2026, 0, 1) + sessions * 2500).toISOString();
          const until = new Date(Date.UTC(2026, 0, 1) + sessions * 7500).toISOString();
          return async (conn) => {
            const res = await conn.get(`${base}/summary?since=${since}&until=${until}`, headers);
            if (res.status !== 200) throw new Error(`summary: ${res.status} ${res.text}`);
          };
        },
      );
    }
    if (only.includes("periods")) {
      // Any instants, so that each has partial hours at both ends: from a few hours to the
      // whole span of the data.
      const span = sessions * 10_000;
      await load(
        `summary, random since/until, ${clients} clients`,
        pgSql,
        clients,
        seconds,
        hostname,
        port,
        () => async (conn) => {
          const from = Date.UTC(2026, 0, 1) + Math.floor(Math.random() * span);
          const to = from + 1 + Math.floor(Math.random() * (span - (from - Date.UTC(2026, 0, 1))));
          const since = new Date(from).toISOString();
          const until = new Date(to).toISOString();
          const res = await conn.get(`${base}/summary?since=${since}&until=${until}`, headers);
          if (res.status !== 200) throw new Error(`summary: ${res.status} ${res.text}`);
        },
      );
    }
    if (only.includes("erasure")) {
      const conn = await connectHttp1(hostname, Number(port));
      try {
        const times: string[] = [];
        for (let person = 0; person < PEOPLE; person++) {
          const started = performance.now();
          const res = await conn.post(
            "/api/v1/workspace/erasures",
            JSON.stringify({ email: `person${person}@example.com` }),
            { ...headers, "idempotency-key": crypto.randomUUID() },
          );
          const ms = performance.now() - started;
          if (res.status !== 200) throw new Error(`erasure: ${res.status} ${res.text}`);
          times.push(`${ms.toFixed(0)} ms (${JSON.parse(res.text).sessions} sessions)`);
        }
        console.log(`  erasure of one person: ${times.join(", ")}; target <= 1 s`);
      } finally {
        conn.close();
      }
    }
  } finally {
    await service.shutdown();
    if (args.includes("--keep") && database.url) console.log(`  kept: ${database.url}`);
    else await database.drop();
  }
}

/** CPU time (ns) a process has spent on a core so far (Linux schedstat); 0 when unreadable. */
function cpuNs(pid: number | "self"): number {
  try {
    return Number(Deno.readTextFileSync(`/proc/${pid}/schedstat`).split(" ")[0]);
  } catch {
    return 0;
  }
}

/**
 * CPU so far of this process (service and load clients) and of the database's backends, when
 * the server runs on this machine: per request, it tells a slower build from a busier machine.
 */
async function cpuNow(sql: Sql | null) {
  // Embedded, the database runs in this process.
  if (!sql) return { self: cpuNs("self"), db: 0 };
  const backends = await sql<{ pid: number }>`
    select pid from pg_stat_activity
    where datname = current_database()`;
  return { self: cpuNs("self"), db: backends.reduce((sum, r) => sum + cpuNs(r.pid), 0) };
}

/** Runs `clients` loops of `request` for `seconds` (after 2 s of warm-up) and prints latencies. */
async function load(
  label: string,
  sql: Sql | null,
  clients: number,
  seconds: number,
  hostname: string,
  port: string,
  makeRequest: () => (conn: Awaited<ReturnType<typeof connectHttp1>>) => Promise<void>,
) {
  const latencies: number[] = [];
  const warmUntil = performance.now() + 2000;
  const stopAt = warmUntil + seconds * 1000;
  let all = 0;
  const before = await cpuNow(sql);
  await Promise.all(Array.from({ length: clients }, async () => {
    const conn = await connectHttp1(hostname, Number(port));
    const request = makeRequest();
    try {
      while (performance.now() < stopAt) {
        const started = performance.now();
        await request(conn);
        all++;
        if (started >= warmUntil) latencies.push(performance.now() - started);
      }
    } finally {
      conn.close();
    }
  }));
  const after = await cpuNow(sql);
  const sorted = latencies.sort((a, b) => a - b);
  if (!sorted.length) {
    console.log(`  ${label}: no request started after the warm-up finished within ${seconds} s`);
    return;
  }
  const cpu = (ns: number) => (ns / all / 1e6).toFixed(2);
  console.log(
    `  ${label}: ${(sorted.length / seconds).toFixed(0)} req/s; p50 ` +
      `${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms; ` +
      `target p99 <= 50 ms; CPU per request: this process ${cpu(after.self - before.self)} ms, ` +
      (sql ? `database ${cpu(after.db - before.db)} ms` : "(database included)"),
  );
}

/**
 * Sessions, answers and their events in bulk SQL: session g started at 2026-01-01 + 10 g
 * seconds, 4 in 5 completed; the sessions with g % 1000 below PEOPLE belong to person<g % 1000>,
 * 100 each for 100,000 sessions. Every event is in the feed; a webhook has a delivery of every
 * session.started event and of every event of those people.
 */
async function fill(
  sql: Awaited<ReturnType<typeof openDb>>["sql"],
  form: string,
  ws: string,
  n: number,
) {
  const start = new Date(Date.UTC(2026, 0, 1));
  // Bulk: the tallies are counted once at the end instead of by a trigger per row.
  await sql`alter table answers disable trigger user`;
  await sql`alter table sessions disable trigger user`;
  await sql`
    insert into sessions (id, questionnaire_id, workspace_id, name, email, loaded_at,
                          started_at, completed_at, answered, total)
    select g, ${form}, ${ws}, 'Visitor ' || g,
      case when g % 1000 < ${PEOPLE} then 'person' || (g % 1000) || '@example.com'
           else 'v' || g || '@example.com' end,
      ${start}::timestamptz + g * interval '10 s', ${start}::timestamptz + g * interval '10 s',
      case when g % 5 <> 0 then ${start}::timestamptz + g * interval '10 s' + interval '1 min' end,
      10, 10
    from generate_series(1, ${n}::int) g`;
  await sql`
    insert into answers (session_id, question_id, questionnaire_id, answer, created_at)
    select s.id, q.id, ${form},
      case q.type
        when 'choice' then q.options->>((s.id * 7 + q.position) % jsonb_array_length(q.options))::int
        when 'rating' then (1 + (s.id + q.position) % 5)::text
        when 'number' then ((s.id * 13 + q.position) % 100)::text
        else 'An answer in words, number ' || s.id end,
      s.started_at + q.position * interval '1 s'
    from sessions s cross join questions q
    where s.questionnaire_id = ${form} and q.questionnaire_id = ${form}`;
  await sql`alter table answers enable trigger user`;
  await sql`alter table sessions enable trigger user`;
  await sql`select onda_recount_tallies()`;
  await sql`
    insert into outbox_events (workspace_id, type, data, created_at, dispatched_at, feed_at)
    select ${ws}::uuid, 'session.started', jsonb_build_object('questionnaire_id', s.questionnaire_id,
        'session_id', s.id, 'sequence', 1,
        'respondent', jsonb_build_object('name', s.name, 'email', s.email)),
      s.started_at, s.started_at, s.started_at
    from sessions s where s.questionnaire_id = ${form}
    union all
    select ${ws}::uuid, 'answer.submitted', jsonb_build_object('questionnaire_id', a.questionnaire_id,
        'session_id', a.session_id, 'question_id', a.question_id, 'answer', a.answer),
      a.created_at, a.created_at, a.created_at
    from answers a where a.questionnaire_id = ${form}`;
  await sql`
    update outbox_events e set feed_position = n.p
    from (select id, row_number() over (order by created_at, id) as p from outbox_events) n
    where e.id = n.id`;
  await sql`update event_positions set last = (select count(*) from outbox_events),
              last_at = (select max(feed_at) from outbox_events)`;
  const [hook] = await sql<{ id: string }>`
    insert into webhooks (workspace_id, url, events, created_at)
    values (${ws}, 'https://receiver.example.com/hook',
            array['session.started', 'answer.submitted', 'session.completed'], now())
    returning id`;
  await sql`
    insert into webhook_deliveries (webhook_id, workspace_id, event_id, event_type, body,
                                    created_at, status, attempts)
    select ${hook.id}, ${ws}, e.id, e.type, e.data::text, e.created_at, 'succeeded', 1
    from outbox_events e
    where e.type = 'session.started' or (e.data->>'session_id')::int8 % 1000 < ${PEOPLE}`;
  await sql`analyze`;
}
