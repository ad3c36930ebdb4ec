// Exports: POST /api/v1/exports, status, streamed CSV and NDJSON downloads.

import assert from "node:assert/strict";
import { type Batch, exportHead, exportStream } from "../../lib/forms/export.ts";
import {
  createQuestionnaire,
  publishedQuestionnaire,
  registerUser,
  startSession,
  type TestUser,
} from "./_forms.ts";
import { body, startTestService, test } from "../_server.ts";
import { addMember, EVERY_TYPE } from "./_workspace.ts";

const service = await startTestService();
const owner = await registerUser(service);
const form = await publishedQuestionnaire(service, owner, EVERY_TYPE);
const SESSIONS = 3000;
const STARTED = new Date(Date.now() - 3 * 3600_000);

// Bulk data straight into the tables (the HTTP path is tested elsewhere): values chosen to
// exercise quoting (comma, quote, CR LF), formula neutralising (=, -, +, @, tab), Unicode and
// unanswered questions.
await service.db.sql`
  insert into sessions (id, questionnaire_id, workspace_id, name, email, loaded_at,
                        started_at, completed_at, answered, total)
  select g * 7919, ${form.id}, ${owner.workspaceId},
    case g % 5 when 0 then '=cmd|'' /C calc''!A0' when 1 then 'Zoë, "Z" Ångström'
      else 'Visitor ' || g end,
    'v' || g || '@example.com', ${STARTED}::timestamptz,
    ${STARTED}::timestamptz + g * interval '1 second',
    case when g % 7 = 0 then null else ${STARTED}::timestamptz + g * interval '2 second' end,
    5, 5
  from generate_series(1, ${SESSIONS}::int) g`;
await service.db.sql`
  insert into answers (session_id, question_id, questionnaire_id, answer, created_at)
  select s.id, q.id, q.questionnaire_id,
    case q.type
      when 'text' then case s.id % 6
        when 0 then 'plain ' || s.id
        when 1 then 'comma, "quote" ' || s.id
        when 2 then E'two\r\nlines ' || s.id
        when 3 then '=HYPERLINK("http://x")'
        when 4 then '@SUM(A1)'
        else E'\tTabbed' end
      when 'email' then 'v' || s.id || '@example.com'
      when 'number' then ((s.id % 200) - 100)::text
      when 'choice' then (array['Free', 'Pro', 'Business'])[1 + s.id % 3]
      else (1 + s.id % 5)::text end,
    s.started_at
  from sessions s join questions q on q.questionnaire_id = s.questionnaire_id
  where s.questionnaire_id = ${form.id} and not (q.type = 'number' and s.id % 10 = 0)`;

/** An RFC 4180 parser, written independently of the export, to read the file back. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += c;
  }
  assert.equal(field + record.join(""), "", "the file ends with a complete record");
  return records;
}

interface Expected {
  id: number;
  name: string;
  email: string;
  started_at: Date;
  completed_at: Date | null;
  answers: Record<string, string>;
}

async function expectedSessions(): Promise<Expected[]> {
  const sessions = await service.db.sql<Expected>`
    select id, name, email, started_at, completed_at from sessions
    where questionnaire_id = ${form.id} order by id`;
  const answers = await service.db.sql<{ session_id: number; question_id: number; answer: string }>`
    select session_id, question_id, answer from answers where questionnaire_id = ${form.id}`;
  const bySession = new Map(
    sessions.map((s) => [s.id, { ...s, answers: {} as Record<string, string> }]),
  );
  for (const a of answers) bySession.get(a.session_id)!.answers[String(a.question_id)] = a.answer;
  return [...bySession.values()];
}

function iso(date: Date | null): string {
  return date ? date.toISOString().replace(/\.\d{3}Z$/, "Z") : "";
}

/** What a spreadsheet-safe cell must read: the value, with ' in front of a formula start. */
function safe(value: string): string {
  return ["=", "+", "-", "@", "\t", "\r"].includes(value[0] ?? "") ? "'" + value : value;
}

async function createExport(user: TestUser, format: string, key?: string) {
  return await service.fetch("/api/v1/exports", {
    method: "POST",
    headers: user.headers(key ? { "idempotency-key": key } : {}),
    body: JSON.stringify({ questionnaire_id: form.id, format }),
  });
}

test("export: CSV parses back to the same data, one row per session, one column per question", async () => {
  const created = await createExport(owner, "csv");
  assert.equal(created.status, 202);
  const exp = await body<{ id: string; status: string; sessions: number; download_url: string }>(
    created,
  );
  assert.equal(exp.status, "ready");
  assert.equal(exp.sessions, SESSIONS);

  const res = await service.fetch(exp.download_url, { headers: owner.headers() });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^text\/csv; charset=utf-8/);
  assert.match(res.headers.get("content-disposition")!, /^attachment; filename=".+\.csv"$/);
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf], "UTF-8 BOM for spreadsheets");
  const text = new TextDecoder().decode(bytes); // drops the BOM
  assert.ok(text.endsWith("\r\n"), "records end with CRLF");
  const records = parseCsv(text);
  const [header, ...rows] = records;
  assert.deepEqual(header, [
    "session_id",
    "name",
    "email",
    "started_at",
    "completed_at",
    ...form.questions.map((q) => q.title),
  ]);
  const expected = await expectedSessions();
  assert.equal(rows.length, expected.length);
  rows.forEach((row, i) => {
    const s = expected[i];
    assert.deepEqual(row, [
      String(s.id),
      safe(s.name),
      s.email,
      iso(s.started_at),
      iso(s.completed_at),
      ...form.questions.map((q) => safe(s.answers[String(q.id)] ?? "")),
    ]);
  });
  // The tricky values really were in the data set.
  assert.ok(rows.some((r) => r[5].includes("\r\n")));
  assert.ok(rows.some((r) => r[5] === `'=HYPERLINK("http://x")`));
  assert.ok(rows.some((r) => r[1].startsWith("'=cmd")));
  assert.ok(rows.some((r) => r[7] === ""), "unanswered question is an empty field");
});

test("export: NDJSON holds every session with its answers unchanged", async () => {
  const created = await createExport(owner, "ndjson");
  assert.equal(created.status, 202);
  const exp = await body<{ download_url: string }>(created);
  const res = await service.fetch(exp.download_url, { headers: owner.headers() });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^application\/x-ndjson/);
  const lines = (await res.text()).split("\n");
  assert.equal(lines.pop(), "", "every line ends with a newline");
  const expected = await expectedSessions();
  assert.deepEqual(
    lines.map((line) => JSON.parse(line)),
    expected.map((s) => ({
      session_id: s.id,
      name: s.name,
      email: s.email,
      started_at: iso(s.started_at),
      completed_at: s.completed_at ? iso(s.completed_at) : null,
      answers: s.answers,
    })),
  );
});

test("export: fields that would start a spreadsheet formula get a leading quote", async () => {
  const cases: [string, string][] = [
    ["=1+2", "'=1+2"],
    ["+1", "'+1"],
    ["-5", "'-5"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", `"'\rx"`],
    ["a=b", "a=b"],
    ["", ""],
    ['say "hi"', '"say ""hi"""'],
    ["a,b", '"a,b"'],
    ["=a,b", `"'=a,b"`],
    ["line\nbreak", '"line\nbreak"'],
  ];
  for (const [input, output] of cases) {
    const [row] = await service.db.sql<{ field: string }>`select onda_csv_field(${input}) as field`;
    assert.equal(row.field, output, JSON.stringify(input));
  }
});

test("export: question titles in the CSV header are neutralised like cells", async () => {
  // A title is workspace input too: a header field must not start a formula (issue 19, item 10).
  const titles = ['=HYPERLINK("http://x")', "@SUM(A1)", "+1", "-2", "plain, title"];
  const questionnaire = await createQuestionnaire(
    service,
    owner,
    titles.map((title) => ({ title, type: "text" })),
  );
  const head = await exportHead(service.db.sql, "csv", questionnaire.id);
  assert.ok(
    head.endsWith(
      `,"'=HYPERLINK(""http://x"")",'@SUM(A1),'+1,'-2,"plain, title"\r\n`,
    ),
    head,
  );
});

test("export: the stream reads the database one batch at a time as the client reads", async () => {
  let reads = 0;
  const fake = (after: number | null, limit: number): Promise<Batch> => {
    reads++;
    const start = after ?? 0;
    const ids = [];
    for (let id = start + 1; id <= Math.min(start + limit, 50); id++) ids.push(id);
    return Promise.resolve({
      count: ids.length,
      lastId: ids.length ? ids[ids.length - 1] : null,
      text: ids.map((id) => `row ${id}\n`).join(""),
    });
  };
  const reader = exportStream("head\n", fake, 10, 10_000).getReader();
  const decoder = new TextDecoder();
  assert.equal(decoder.decode((await reader.read()).value), "head\n");
  assert.equal(reads, 0, "nothing read before the consumer asks for rows");
  const first = decoder.decode((await reader.read()).value);
  assert.equal(first.split("\n").length - 1, 10);
  assert.ok(reads <= 2, `read ${reads} batches for one chunk: the stream must not run ahead`);
  let text = first;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  assert.deepEqual(
    text.trim().split("\n"),
    Array.from({ length: 50 }, (_, i) => `row ${i + 1}`),
    "every row once, in order",
  );
  // Five full batches, then one empty read that shows the end: nothing read twice.
  assert.equal(reads, 6);
});

test("export: a batch the database does not answer by the deadline ends the download broken", async () => {
  const silent = (): Promise<Batch> => new Promise(() => {});
  const reader = exportStream("head\n", silent, 10, 200).getReader();
  assert.equal(new TextDecoder().decode((await reader.read()).value), "head\n");
  const t0 = performance.now();
  await assert.rejects(reader.read());
  const ms = performance.now() - t0;
  assert.ok(ms >= 150 && ms < 2000, `failed after ${Math.round(ms)} ms`);
});

test("export: memory stays bounded while a large export streams", async () => {
  const created = await createExport(owner, "csv");
  const exp = await body<{ download_url: string }>(created);
  // The JS heap, not RSS: the embedded database's wasm memory lives in this process too and
  // moves RSS for its own reasons. The bench measures the server's RSS on 1 M answers; the
  // test above pins that batches are read only as the client pulls.
  const before = Deno.memoryUsage().heapUsed;
  let peak = before;
  let bytes = 0;
  const res = await service.fetch(exp.download_url, { headers: owner.headers() });
  for await (const chunk of res.body!) {
    bytes += chunk.length;
    peak = Math.max(peak, Deno.memoryUsage().heapUsed);
  }
  assert.ok(bytes > 300_000);
  assert.ok(peak - before < 64 * 1024 * 1024, `heap grew ${(peak - before) >> 20} MiB`);
});

test("export: sessions started after the export was requested are not in it", async () => {
  const created = await createExport(owner, "ndjson");
  const exp = await body<{ download_url: string }>(created);
  service.clock.advance(60_000);
  const later = await startSession(service, form.slug, {
    name: "Late",
    email: "late@example.com",
    loaded_at: service.clock().getTime(),
  });
  const res = await service.fetch(exp.download_url, { headers: owner.headers() });
  const ids = (await res.text()).trim().split("\n").map((l) => JSON.parse(l).session_id);
  assert.equal(ids.length, SESSIONS);
  assert.ok(!ids.includes(later));
  const fresh = await body<{ sessions: number }>(await createExport(owner, "ndjson"));
  assert.equal(fresh.sessions, SESSIONS + 1);
});

test("export: needs admin or owner (editor and viewer 403)", async () => {
  const editor = await addMember(service, owner, "editor");
  const viewer = await addMember(service, owner, "viewer");
  const admin = await addMember(service, owner, "admin");
  for (const user of [editor, viewer]) {
    const res = await createExport(user, "csv");
    assert.equal(res.status, 403);
    assert.equal((await body<{ error: { code: string } }>(res)).error.code, "FORBIDDEN");
  }
  const ok = await createExport(admin, "csv");
  assert.equal(ok.status, 202);
  const exp = await body<{ id: string }>(ok);
  const status = await service.fetch(`/api/v1/exports/${exp.id}`, { headers: editor.headers() });
  assert.equal(status.status, 403);
  await status.body?.cancel();
  const anonymous = await service.fetch(`/api/v1/exports/${exp.id}/download`);
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
});

test("export: bad format or questionnaire id is 400 naming the field", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ questionnaire_id: form.id, format: "xlsx" }, "format"],
    [{ questionnaire_id: form.id }, "format"],
    [{ questionnaire_id: "nope", format: "csv" }, "questionnaire_id"],
    [{ questionnaire_id: form.id, format: "csv", extra: 1 }, "extra"],
  ];
  for (const [payload, field] of cases) {
    const res = await service.fetch("/api/v1/exports", {
      method: "POST",
      headers: owner.headers(),
      body: JSON.stringify(payload),
    });
    assert.equal(res.status, 400, JSON.stringify(payload));
    const err = (await body<{ error: { code: string; field: string } }>(res)).error;
    assert.equal(err.code, "VALIDATION_FAILED");
    assert.equal(err.field, field);
  }
});

test("export: another workspace's questionnaire or export is 404", async () => {
  const stranger = await registerUser(service);
  const res = await createExport(stranger, "csv");
  assert.equal(res.status, 404);
  assert.equal((await body<{ error: { field: string } }>(res)).error.field, "questionnaire_id");
  const mine = await body<{ id: string }>(await createExport(owner, "csv"));
  for (const path of [`/api/v1/exports/${mine.id}`, `/api/v1/exports/${mine.id}/download`]) {
    const other = await service.fetch(path, { headers: stranger.headers() });
    assert.equal(other.status, 404, path);
    await other.body?.cancel();
  }
});

test("export: Idempotency-Key replays the same export without a second one", async () => {
  const key = crypto.randomUUID();
  const [count0] = await service.db.sql<{ n: number }>`select count(*)::int as n from exports`;
  const first = await createExport(owner, "csv", key);
  assert.equal(first.status, 202);
  const a = await body<{ id: string }>(first);
  const second = await createExport(owner, "csv", key);
  assert.equal(second.status, 202);
  assert.equal(second.headers.get("idempotent-replayed"), "true");
  assert.equal((await body<{ id: string }>(second)).id, a.id);
  const [count1] = await service.db.sql<{ n: number }>`select count(*)::int as n from exports`;
  assert.equal(count1.n, count0.n + 1);
  const other = await createExport(owner, "ndjson", key);
  assert.equal(other.status, 422);
  await other.body?.cancel();
});

test("export: close", async () => {
  await service.close();
});
