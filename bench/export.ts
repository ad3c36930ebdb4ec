// `deno task bench export`: exports a questionnaire with 1,000,000 answers through the real
// HTTP download and prints answer rows/s and the server's peak memory. Targets: >= 100,000
// rows/s, <= 150 MB. The server runs as its own process (the start task's flags), so its
// peak resident memory (VmHWM) is measured alone. Data is inserted with bulk SQL.
//   options: --answers N (default 1000000), --questions Q (default 5), --format csv|ndjson
//   database: DATABASE_URL (a scratch database is created and dropped) or embedded PGlite.

import { loadConfig } from "../lib/config.ts";
import { openDb } from "../lib/db/db.ts";
import { startService } from "../lib/server.ts";
import { freshDatabase } from "../tests/_server.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

function option(args: string[], name: string, fallback: string): string {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function procKb(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
}

/** Registers a user and publishes a questionnaire through the API; then bulk-inserts answers. */
async function prepare(
  databaseUrl: string | null,
  dataDir: string,
  sessions: number,
  questionCount: number,
) {
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl ?? undefined,
    DATA_DIR: dataDir,
  });
  const db = await openDb({ databaseUrl, dataDir, poolMax: 4 });
  const service = await startService({ config, db, log: () => {}, startWorkers: false });
  try {
    const register = await fetch(`${service.url}/api/v1/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email: `bench-${crypto.randomUUID().slice(0, 8)}@example.com`,
        password: "bench-password-123",
        name: "Bench",
      }),
    });
    if (register.status !== 201) throw new Error(`register: ${register.status}`);
    const cookie = /service_token=[^;]+/.exec(register.headers.get("set-cookie")!)![0];
    const workspaceId = (await register.json()).workspaces[0].id;
    const questions = Array.from({ length: questionCount }, (_, i) => ({
      title: `Question ${i + 1}, "quoted"`,
      type: "text",
    }));
    const created = await fetch(`${service.url}/api/v1/questionnaires`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ title: "Bench", questions }),
    });
    if (created.status !== 201) throw new Error(`create: ${created.status}`);
    const form = await created.json();
    const t0 = performance.now();
    const started = new Date(Date.now() - 86_400_000);
    await db.sql`
      insert into sessions (id, questionnaire_id, workspace_id, name, email, loaded_at,
                            started_at, completed_at, answered, total)
      select g, ${form.id}, ${workspaceId}, 'Visitor ' || g, 'v' || g || '@example.com',
        ${started}::timestamptz, ${started}::timestamptz + g * interval '1 ms',
        ${started}::timestamptz + g * interval '2 ms', ${questionCount}::int,
        ${questionCount}::int
      from generate_series(1, ${sessions}::int) g`;
    await db.sql`
      insert into answers (session_id, question_id, questionnaire_id, answer, created_at)
      select s.id, q.id, q.questionnaire_id,
        case when s.id % 10 = 0 then '=SUM(A' || s.id || ')'
             when s.id % 10 = 1 then 'with, comma and "quote" ' || s.id
             else 'answer ' || s.id || ' to ' || q.position end,
        s.started_at
      from sessions s join questions q on q.questionnaire_id = s.questionnaire_id
      where s.questionnaire_id = ${form.id}`;
    console.log(
      `  inserted ${sessions * questionCount} answers in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s (bulk SQL)`,
    );
    return { cookie, questionnaireId: form.id as string };
  } finally {
    await service.shutdown();
  }
}

export async function run(args: string[]) {
  const answers = Number(option(args, "answers", "1000000"));
  const questionCount = Number(option(args, "questions", "5"));
  const format = option(args, "format", "csv");
  // e.g. --v8-flags=--max-old-space-size=64 to see whether the heap is garbage or retained.
  const v8Flags = args.filter((a) => a.startsWith("--v8-flags="));
  const sessions = Math.ceil(answers / questionCount);
  const database = await freshDatabase(Deno.env.get("DATABASE_URL") || null);
  const dataDir = `${ROOT}/data/bench_export_${crypto.randomUUID().slice(0, 8)}`;
  console.log(
    `export: ${sessions * questionCount} answers (${sessions} sessions x ${questionCount} ` +
      `questions), ${format}, ${database.url ? "PostgreSQL" : "embedded PGlite"}`,
  );
  let child: Deno.ChildProcess | null = null;
  try {
    const { cookie, questionnaireId } = await prepare(
      database.url,
      dataDir,
      sessions,
      questionCount,
    );
    const port = freePort();
    const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
    const flags = (config.tasks.start as string).split(/\s+/).slice(2, -1).map((word) =>
      word.startsWith("--allow-read=") || word.startsWith("--allow-write=")
        ? word.replace("./data", dataDir)
        : word
    );
    child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, ...v8Flags, `${ROOT}/main.ts`],
      cwd: ROOT,
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        WEBHOOK_WORKER: "0",
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      },
      clearEnv: true,
      stdout: "null",
      stderr: "inherit",
    }).spawn();
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 600; i++) {
      try {
        const res = await fetch(`${base}/status`);
        await res.body?.cancel();
        if (res.ok) break;
      } catch { /* starting */ }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const created = await fetch(`${base}/api/v1/exports`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ questionnaire_id: questionnaireId, format }),
    });
    if (created.status !== 202) throw new Error(`export: ${created.status}`);
    const exp = await created.json();
    const before = await procKb(child.pid, "VmRSS");
    let peakSampled = before;
    const t0 = performance.now();
    const res = await fetch(`${base}${exp.download_url}`, { headers: { cookie } });
    let bytes = 0;
    let newlines = 0;
    let lastSample = 0;
    let firstByte = 0;
    for await (const chunk of res.body!) {
      firstByte ||= performance.now() - t0;
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
      if (performance.now() - lastSample > 50) {
        lastSample = performance.now();
        peakSampled = Math.max(peakSampled, await procKb(child.pid, "VmRSS"));
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    const hwm = await procKb(child.pid, "VmHWM");
    const rows = format === "csv" ? newlines - 1 : newlines; // embedded CRLF only in quoted fields
    console.log(
      `  downloaded ${(bytes / 1e6).toFixed(1)} MB, ~${rows} lines in ${seconds.toFixed(2)} s`,
    );
    console.log(
      `  throughput: ${Math.round((sessions * questionCount) / seconds).toLocaleString("en")} ` +
        `answers/s (${Math.round(sessions / seconds).toLocaleString("en")} sessions/s); ` +
        `target >= 100,000 answers/s`,
    );
    console.log(
      `  server memory: RSS before ${(before / 1024).toFixed(0)} MB, peak while streaming ` +
        `${(peakSampled / 1024).toFixed(0)} MB, process high-water mark ${
          (hwm / 1024).toFixed(0)
        } MB` +
        `; target <= 150 MB`,
    );
  } finally {
    if (child) {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    }
    await database.drop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}
