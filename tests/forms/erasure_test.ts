// POST /api/v1/workspace/erasures (routes/forms/erasures.ts) and the erasure of one session:
// nothing of the person is left in any table, route, export, the events feed or the delivery
// log; one transaction; roles, isolation, idempotency and the record kept.

import assert from "node:assert/strict";
import { body, startTestService, test, type TestService } from "../_server.ts";
import {
  answer,
  publishedQuestionnaire,
  registerUser,
  sessionBody,
  startSession,
  type TestQuestionnaire,
  type TestUser,
  validAnswerFor,
} from "./_forms.ts";
import { addMember, EVERY_TYPE } from "./_workspace.ts";
import { startReceiver } from "../webhooks/_webhooks.ts";
import { numbered, readToEnd } from "../webhooks/_events.ts";
import { sha256Hex } from "../../lib/encoding.ts";

const service = await startTestService({
  startWorkers: true,
  env: {
    RATE_LIMIT_PUBLIC_PER_MINUTE: "1000000",
    RATE_LIMIT_USER_PER_MINUTE: "1000000",
    DEFAULT_PLAN: "business",
    // A failed delivery is retried every second for a while: erased ones must stop.
    WEBHOOK_RETRY_DELAYS: Array(30).fill("1").join(","),
  },
});

// Counts, column by column, the rows of every table of the schema that hold `needle` (any
// case): every column found in information_schema, bytea as its bytes (escape encoding keeps
// ASCII as it is; a row cast would show it in hex), every other type as its text (text, json,
// arrays, ...). Only types that cannot hold text are left out.
await service.db.sql.exec(`
  create function test_rows_holding(needle text) returns table (tbl text, col text, n bigint)
  language plpgsql as $$
  declare c record;
  begin
    for c in
      select k.table_name, k.column_name, k.data_type
      from information_schema.columns k
      join information_schema.tables t
        on t.table_schema = k.table_schema and t.table_name = k.table_name
      where k.table_schema = current_schema() and t.table_type = 'BASE TABLE'
        and k.data_type not in ('smallint', 'integer', 'bigint', 'numeric', 'real',
                                'double precision', 'boolean', 'uuid', 'date',
                                'timestamp with time zone', 'timestamp without time zone')
    loop
      tbl := c.table_name;
      col := c.column_name;
      execute format(
        'select count(*) from %I where %s ilike %L',
        c.table_name,
        case when c.data_type = 'bytea' then format('encode(%I, %L)', c.column_name, 'escape')
             else format('%I::text', c.column_name) end,
        '%' || replace(replace(replace(needle, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
        into n;
      if n > 0 then return next; end if;
    end loop;
  end $$;`);

/** The tables (with how many rows) where some column holds `needle`. */
async function tablesHolding(needle: string): Promise<Record<string, number>> {
  const rows = await service.db.sql<{ tbl: string; n: number }>`
    select tbl, max(n)::int as n from test_rows_holding(${needle}) group by tbl`;
  return Object.fromEntries(rows.map((r) => [r.tbl, r.n]));
}

/** Starts a session as `email` and answers `count` questions (all by default). */
async function respond(form: TestQuestionnaire, email: string, count = form.questions.length) {
  const name = `Name of ${email.toLowerCase().split("@")[0]}`;
  const id = await startSession(service, form.slug, sessionBody({ name, email }));
  for (const q of form.questions.slice(0, count)) {
    // The e-mail question is answered with the respondent's own address, as people do.
    const text = q.type === "email" ? email.toLowerCase() : validAnswerFor(q);
    const res = await answer(service, form.slug, id, q.id, text);
    assert.equal(res.status, 201, await res.clone().text());
    await res.body?.cancel();
  }
  return id;
}

function erase(user: TestUser, email: string, key?: string) {
  return service.fetch("/api/v1/workspace/erasures", {
    method: "POST",
    headers: user.headers(key ? { "idempotency-key": key } : {}),
    body: JSON.stringify({ email }),
  });
}

async function sessionIds(user: TestUser, form: { id: string }) {
  const res = await service.fetch(`/api/v1/questionnaires/${form.id}/sessions?limit=100`, {
    headers: user.headers(),
  });
  assert.equal(res.status, 200);
  return (await body<{ data: { id: number }[] }>(res)).data.map((s) => s.id);
}

async function exportText(user: TestUser, form: { id: string }) {
  const made = await service.fetch("/api/v1/exports", {
    method: "POST",
    headers: user.headers(),
    body: JSON.stringify({ questionnaire_id: form.id, format: "ndjson" }),
  });
  assert.equal(made.status, 202);
  const { download_url } = await body<{ download_url: string }>(made);
  const res = await service.fetch(download_url, { headers: user.headers() });
  assert.equal(res.status, 200);
  return await res.text();
}

interface Delivery {
  event_id: string;
  status: string;
  attempts: number;
}
async function deliveries(user: TestUser, webhookId: string): Promise<Delivery[]> {
  const res = await service.fetch(`/api/v1/webhooks/${webhookId}/deliveries?limit=100`, {
    headers: user.headers(),
  });
  assert.equal(res.status, 200);
  return (await body<{ data: Delivery[] }>(res)).data;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs;
  while (!await check()) {
    if (performance.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function sessionOf(event: { data: { session_id?: number } }) {
  return event.data.session_id;
}

test("erasure: the search of every table finds an address in text, json, array and bytea columns, in any case", async () => {
  const needle = "Probe.Person_1%@Example.org";
  await service.db.sql.exec(`
    create table test_search_probe (t text, v varchar(100), j json, b jsonb, a text[], y bytea,
                                    other text);
    insert into test_search_probe (t, v, j, b, a, y, other) values
      ('x ${needle.toLowerCase()} y', '${needle.toUpperCase()}', '{"to": "${needle}"}',
       '{"to": ["${needle}"]}', array['a', '${needle}'],
       convert_to('<p>${needle}</p>', 'UTF8'), 'Probe.Person_1x@Example.org');`);
  try {
    const found = await service.db.sql<{ col: string }>`
      select col from test_rows_holding(${needle}) where tbl = 'test_search_probe'
      order by col`;
    // "other" differs only where the needle holds a LIKE wildcard: matched literally.
    assert.deepEqual(found.map((r) => r.col), ["a", "b", "j", "t", "v", "y"]);
  } finally {
    await service.db.sql.exec(`drop table test_search_probe`);
  }
});

test("erasure: nothing of the person is left in any table, route, export, events feed or delivery log; others' data stays", async () => {
  let failing = false;
  const receiver = startReceiver(() => new Response(null, { status: failing ? 500 : 204 }));
  try {
    const owner = await registerUser(service);
    const admin = await addMember(service, owner, "admin");
    const formA = await publishedQuestionnaire(service, owner, EVERY_TYPE);
    const formB = await publishedQuestionnaire(service, owner, EVERY_TYPE);
    const made = await service.fetch("/api/v1/webhooks", {
      method: "POST",
      headers: owner.headers(),
      body: JSON.stringify({ url: receiver.url }),
    });
    assert.equal(made.status, 201);
    const webhook = await body<{ id: string }>(made);
    // Mixed case as typed on the form; erased by the address in any case.
    const address = "Ana.Erased+x@Example.org";
    const kept = "bo.kept@example.org";
    const erasedIds = [await respond(formA, address), await respond(formA, address, 2)];
    const keptId = await respond(formA, kept);
    const eventsBefore = 2 * (EVERY_TYPE.length + 2) + 2 + 1;
    // Phase 1 delivered: the receiver has them (deliveries already made stay made).
    await receiver.waitFor((r) => r.length >= eventsBefore);
    // Phase 2 pending: the receiver fails, so these are retried until erased.
    failing = true;
    erasedIds.push(await respond(formB, address.toUpperCase(), 1));
    await until(async () => {
      const log = await deliveries(owner, webhook.id);
      return log.filter((d) => d.status === "pending" && d.attempts > 0).length >= 2;
    }, "failed deliveries waiting for a retry");
    await numbered(service, owner.workspaceId);
    const feedBefore = (await readToEnd(service, owner)).events;
    assert.ok(feedBefore.some((e) => erasedIds.includes(sessionOf(e)!)), "feed had them");
    const before = await tablesHolding(address);
    for (const table of ["sessions", "answers", "outbox_events", "webhook_deliveries"]) {
      assert.ok(before[table] > 0, `the search finds the address in ${table}`);
    }

    const key = crypto.randomUUID();
    const res = await erase(admin, address.toLowerCase(), key);
    assert.equal(res.status, 200, await res.clone().text());
    const answerBody = await res.text();
    const erasure = JSON.parse(answerBody);
    assert.equal(erasure.sessions, 3);
    const erasedAt = performance.now();
    failing = false;

    // Every table, every column.
    assert.deepEqual(await tablesHolding(address), {}, "no table holds the address");
    assert.deepEqual(await tablesHolding("Name of ana.erased+x"), {}, "nor the name");
    assert.ok((await tablesHolding(kept)).sessions > 0, "the other respondent is kept");
    // The routes.
    assert.deepEqual(await sessionIds(owner, formA), [keptId]);
    assert.deepEqual(await sessionIds(owner, formB), []);
    for (const id of erasedIds) {
      const form = id === erasedIds[2] ? formB : formA;
      const one = await service.fetch(`/api/v1/questionnaires/${form.id}/sessions/${id}`, {
        headers: owner.headers(),
      });
      assert.equal(one.status, 404);
      await one.body?.cancel();
    }
    const summary = await service.fetch(`/api/v1/questionnaires/${formA.id}/summary`, {
      headers: owner.headers(),
    });
    assert.equal((await body<{ sessions: { started: number } }>(summary)).sessions.started, 1);
    // The export.
    const file = await exportText(owner, formA);
    assert.ok(!file.toLowerCase().includes(address.toLowerCase()), "export");
    assert.ok(file.includes(kept));
    // The events feed: a new reader and the one that kept its position.
    const feed = (await readToEnd(service, owner)).events;
    assert.ok(feed.every((e) => !erasedIds.includes(sessionOf(e)!)), "feed");
    assert.ok(feed.some((e) => sessionOf(e) === keptId));
    assert.equal(feed.length, EVERY_TYPE.length + 2, "the kept session's events stay");
    // The delivery log.
    const log = await deliveries(owner, webhook.id);
    const erasedEvents = new Set(
      feedBefore.filter((e) => erasedIds.includes(sessionOf(e)!)).map((e) => e.id),
    );
    assert.ok(log.every((d) => !erasedEvents.has(d.event_id)), "delivery log");
    assert.equal(log.length, EVERY_TYPE.length + 2, "the kept session's deliveries stay");
    // No retry of an erased delivery reaches the receiver once the erasure answered (a new
    // event shows that the worker runs on).
    await respond(formA, kept, 1);
    await receiver.waitFor((r) =>
      r.some((x) => x.at > erasedAt && x.json.data.session_id !== erasedIds[2])
    );
    await new Promise((r) => setTimeout(r, 2500));
    assert.ok(
      receiver.received.every((x) => x.at < erasedAt || x.json.data.session_id !== erasedIds[2]),
      "an erased delivery was sent after the erasure",
    );
    // The logs.
    const logged = JSON.stringify(service.logs).toLowerCase();
    assert.ok(!logged.includes(address.toLowerCase()), "a log line holds the address");

    // Idempotent: the same key replays the answer and erases nothing more.
    await respond(formA, address, 1);
    const again = await erase(admin, address.toLowerCase(), key);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal(await again.text(), answerBody);
    const other = await erase(admin, kept, key);
    assert.equal(other.status, 422);
    await other.body?.cancel();
    const [count] = await service.db.sql<{ n: number }>`
      select count(*)::int as n from erasures where workspace_id = ${owner.workspaceId}`;
    assert.equal(count.n, 1, "one record per erasure, not per replay");
    const fresh = await erase(admin, address);
    assert.equal((await body<{ sessions: number }>(fresh)).sessions, 1);
  } finally {
    await receiver.close();
  }
});

test("erasure: recorded with who, when and how many, and a keyed digest of the address, never the address", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const address = "carla.record@example.org";
  await respond(form, address, 1);
  await respond(form, address, 0);
  service.clock.set("2026-11-20T08:15:30Z");
  let res: Response;
  try {
    res = await erase(owner, address);
  } finally {
    service.clock.set(new Date());
  }
  assert.equal(res.status, 200);
  const answer = await body<{ id: string; sessions: number; created_at: string }>(res);
  assert.equal(answer.sessions, 2);
  assert.match(answer.created_at, /^2026-11-20T08:15:3/);
  const [row] = await service.db.sql<Record<string, unknown>>`
    select * from erasures where id = ${answer.id}`;
  assert.equal(row.workspace_id, owner.workspaceId);
  assert.equal(row.requested_by, owner.userId);
  assert.equal(row.kind, "respondent");
  assert.equal(row.sessions, 2);
  const digest = row.email_digest as string;
  assert.match(digest, /^[0-9a-f]{64}$/);
  assert.notEqual(digest, sha256Hex(address), "keyed, not a plain digest");
  // The same address (in any case) gives the same digest in this workspace, another one not.
  const again = await erase(owner, address.toUpperCase());
  const second = await body<{ id: string; sessions: number }>(again);
  assert.equal(second.sessions, 0);
  const [row2] = await service.db.sql<{ email_digest: string }>`
    select email_digest from erasures where id = ${second.id}`;
  assert.equal(row2.email_digest, digest);
  const elsewhere = await registerUser(service);
  const third = await body<{ id: string }>(await erase(elsewhere, address));
  const [row3] = await service.db.sql<{ email_digest: string }>`
    select email_digest from erasures where id = ${third.id}`;
  assert.notEqual(row3.email_digest, digest, "bound to the workspace");
});

test("erasure: one transaction: a failure at the end leaves every session, event and delivery", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const address = "dora.atomic@example.org";
  const ids = [await respond(form, address), await respond(form, address, 1)];
  await numbered(service, owner.workspaceId);
  const count = async () => {
    const [row] = await service.db.sql<{ sessions: number; answers: number; events: number }>`
      select (select count(*) from sessions where id = any(${ids}::int8[]))::int as sessions,
             (select count(*) from answers where session_id = any(${ids}::int8[]))::int
               as answers,
             (select count(*) from outbox_events
              where workspace_id = ${owner.workspaceId})::int as events`;
    return row;
  };
  const before = await count();
  assert.equal(before.sessions, 2);
  // The record is the erasure's last write: make it fail after everything else was deleted.
  await service.db.sql.exec(`
    create function test_refuse() returns trigger language plpgsql as $$
    begin raise exception 'refused by the test'; end $$;
    create trigger test_refuse before insert on erasures
      for each row execute function test_refuse();`);
  try {
    const res = await erase(owner, address);
    assert.equal(res.status, 500);
    await res.body?.cancel();
  } finally {
    await service.db.sql.exec(`drop trigger test_refuse on erasures;`);
  }
  assert.deepEqual(await count(), before, "nothing erased, nothing half-erased");
  const res = await erase(owner, address);
  assert.equal((await body<{ sessions: number }>(res)).sessions, 2);
  assert.deepEqual(await count(), { sessions: 0, answers: 0, events: 0 });
});

test("erasure: needs admin, and reaches only the caller's workspace", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const other = await registerUser(service);
  const otherForm = await publishedQuestionnaire(service, other);
  const address = "eve.scoped@example.org";
  await respond(form, address, 1);
  const theirs = await respond(otherForm, address, 1);
  for (const role of ["viewer", "editor"] as const) {
    const member = await addMember(service, owner, role);
    const res = await erase(member, address);
    assert.equal(res.status, 403, role);
    await res.body?.cancel();
  }
  const bad = await service.fetch("/api/v1/workspace/erasures", {
    method: "POST",
    headers: owner.headers(),
    body: JSON.stringify({ email: "not an address" }),
  });
  assert.equal(bad.status, 400);
  assert.equal((await body<{ error: { field: string } }>(bad)).error.field, "email");
  const admin = await addMember(service, owner, "admin");
  assert.equal((await body<{ sessions: number }>(await erase(admin, address))).sessions, 1);
  assert.deepEqual(await sessionIds(other, otherForm), [theirs], "another workspace's stays");
});

test("erasure: deleting one session erases its events from the feed and its deliveries from the log", async () => {
  const receiver = startReceiver();
  try {
    const owner = await registerUser(service);
    const form = await publishedQuestionnaire(service, owner);
    const made = await service.fetch("/api/v1/webhooks", {
      method: "POST",
      headers: owner.headers(),
      body: JSON.stringify({ url: receiver.url }),
    });
    const webhook = await body<{ id: string }>(made);
    const gone = await respond(form, "fay.single@example.org");
    const stays = await respond(form, "fay.single@example.org");
    const perSession = form.questions.length + 2;
    await receiver.waitFor((r) => r.length >= 2 * perSession);
    await numbered(service, owner.workspaceId);
    const res = await service.fetch(`/api/v1/questionnaires/${form.id}/sessions/${gone}`, {
      method: "DELETE",
      headers: owner.headers(),
    });
    assert.equal(res.status, 204);
    const again = await service.fetch(`/api/v1/questionnaires/${form.id}/sessions/${gone}`, {
      method: "DELETE",
      headers: owner.headers(),
    });
    assert.equal(again.status, 404, "already erased");
    await again.body?.cancel();
    assert.deepEqual(await sessionIds(owner, form), [stays]);
    const feed = (await readToEnd(service, owner)).events;
    assert.deepEqual([...new Set(feed.map(sessionOf))], [stays]);
    const log = await deliveries(owner, webhook.id);
    assert.equal(log.length, perSession);
    assert.ok(!(await exportText(owner, form)).includes(String(gone)));
    const [record] = await service.db.sql<{ kind: string; sessions: number; digest: null }>`
      select kind, sessions, email_digest as digest from erasures
      where workspace_id = ${owner.workspaceId}`;
    assert.deepEqual({ ...record }, { kind: "session", sessions: 1, digest: null });
  } finally {
    await receiver.close();
  }
});

test("erasure: the visitor's Idempotency-Key records of the start and answers go too", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const keyed = (path: string, payload: unknown) =>
    service.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
      body: JSON.stringify(payload),
    });
  const started = await keyed(
    `/api/v1/public/q/${form.slug}/sessions`,
    sessionBody({ name: "Gil Keyed", email: "gil.keyed@example.org" }),
  );
  assert.equal(started.status, 201);
  const { sessionId } = await body<{ sessionId: number }>(started);
  const q = form.questions[0];
  const answered = await keyed(`/api/v1/public/q/${form.slug}/sessions/${sessionId}/answers`, {
    questionId: q.id,
    answerText: validAnswerFor(q),
  });
  assert.equal(answered.status, 201, await answered.clone().text());
  await answered.body?.cancel();
  const records = () =>
    service.db.sql<{ route: string }>`
      select route from idempotency_keys
      where route like ${`POST /api/v1/public/q/${form.slug}/sessions%`}`;
  assert.equal((await records()).length, 2, "both requests left a record");
  const res = await erase(owner, "gil.keyed@example.org");
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  assert.equal((await records()).length, 0, "no record of the erased session is left");
});

test("erasure: another respondent's free text that names the address stays, as OpenAPI says", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner, [{ title: "Note", type: "text" }]);
  const address = "hal.named@example.org";
  await respond(form, address);
  const other = await startSession(service, form.slug, sessionBody({ email: "ivy@example.org" }));
  const said = `Ask my colleague ${address} too`;
  const res = await answer(service, form.slug, other, form.questions[0].id, said);
  assert.equal(res.status, 201);
  await res.body?.cancel();
  const erased = await erase(owner, address);
  assert.equal((await body<{ sessions: number }>(erased)).sessions, 1);
  assert.deepEqual(await sessionIds(owner, form), [other]);
  assert.deepEqual(Object.keys(await tablesHolding(address)).sort(), [
    "answers",
    "outbox_events",
  ]);
});

test("erasure: close the service", async () => {
  await (service as TestService).close();
});
