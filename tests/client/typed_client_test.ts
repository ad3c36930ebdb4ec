// A client generated from the served OpenAPI document with openapi-typescript's default options
// (api_types.ts) and an openapi-fetch client walks an integrator's whole journey with no cast:
// the four ads routes; register, a questionnaire, publish, a public session and its answers, the
// webhook, catching up on /events, an export. deno check type-checks the calls against the
// types; every answer is checked against what the document declares for it (status, headers,
// body), and so is every webhook delivery the journey causes.

import assert from "node:assert/strict";
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./api_types.ts";
import { generateTypes, TYPES_FILE } from "./generate_types.ts";
import { conform, conformHeaders, deref, webhookOperation } from "./_conform.ts";
import { validate } from "../_json_schema.ts";
import { body, startTestService, test } from "../_server.ts";
import { loadFixture } from "../ads/_fixture.ts";
import { startReceiver } from "../webhooks/_webhooks.ts";

type Schemas = components["schemas"];

const service = await startTestService({ startWorkers: true });
const fixture = await loadFixture(service);
const receiver = startReceiver();
const doc: unknown = await body(await service.fetch("/api/openapi"));

/** "METHOD template status" of every answer checked against the document. */
const checked: string[] = [];

const conformance: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const problems = await conform(doc, request.method, schemaPath, response);
    const what = `${request.method} ${schemaPath} ${response.status}`;
    assert.deepEqual(problems, [], `${what} departs from the document`);
    checked.push(what);
  },
};

const client = createClient<paths>({ baseUrl: service.url });
client.use(conformance);

const adsKey = { authorization: `Bearer ${fixture.keys.get("acme")}` };
const uuid = () => crypto.randomUUID();

/** The body of a successful answer, typed; fails the test on any other answer. */
function ok<T>(result: { data?: T; response: Response }): T {
  if (result.data === undefined) assert.fail(`no body: ${result.response.status}`);
  return result.data;
}

test("typed client: api_types.ts is what openapi-typescript makes of the served document", async () => {
  const expected = await generateTypes(doc);
  const actual = await Deno.readTextFile(TYPES_FILE);
  assert.ok(actual === expected, "api_types.ts is stale: run `deno task openapi-types`");
});

test("typed client: the journey type-checks against the default types with 0 errors", async () => {
  // What an integrator runs: tsc over their calls and the generated types. A request field with
  // a default that the types made required would fail here (QuestionInput.required).
  const checked = await new Deno.Command(Deno.execPath(), {
    args: ["check", new URL(import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const report = new TextDecoder().decode(checked.stderr);
  assert.equal(checked.code, 0, report);
  assert.doesNotMatch(report, /TS\d+/);
});

test("typed client: the ads API (whoami, a filtered list and its next page, a report, coverage)", async () => {
  const me = await client.GET("/api/v1/whoami", { headers: adsKey });
  assert.equal(me.response.status, 200);
  const whoami: Schemas["Whoami"] = ok(me);
  const period = whoami.data.scope.period ?? assert.fail("the fixture's key has a period");
  const station = whoami.data.scope.stations[0].id;

  const day = 86_400_000;
  const tooLong = new Date(Date.parse(period.since) + 40 * day).toISOString();
  const query = { since: period.since, until: tooLong, station_id: station, limit: 3 };
  const first = await client.GET("/api/v1/ads", { params: { query }, headers: adsKey });
  assert.equal(first.response.status, 422, "a period over 31 days");
  assert.equal(first.error?.error.field, "until");

  const until = new Date(Date.parse(period.since) + 7 * day).toISOString();
  const page1 = await client.GET("/api/v1/ads", {
    params: { query: { ...query, until } },
    headers: adsKey,
  });
  assert.equal(page1.response.status, 200);
  const ads: Schemas["OccurrencePage"] = ok(page1);
  assert.ok(ads.meta.has_more, "more than one page");
  const page2 = await client.GET("/api/v1/ads", {
    params: { query: { ...query, until, offset: ads.meta.limit } },
    headers: adsKey,
  });
  assert.equal(ok(page2).meta.offset, 3);
  assert.notEqual(ok(page2).data[0].id, ads.data[0].id);

  const summary = await client.GET("/api/v1/reports/summary", {
    params: { query: { since: period.since, until } },
    headers: adsKey,
  });
  assert.equal(ok(summary).data.by_station.length, whoami.data.scope.stations.length);

  const coverage = await client.GET("/api/v1/coverage", {
    params: { query: { since: period.since, until, station_id: station } },
    headers: adsKey,
  });
  assert.equal(ok(coverage).data[0].station_id, station);

  const alias = await client.GET("/api/whoami", { headers: adsKey });
  assert.equal(alias.response.headers.get("deprecation"), "true");

  const unknown = await client.GET("/api/v1/ads", {
    params: { query: { station_id: "not-granted" } },
    headers: adsKey,
  });
  assert.equal(unknown.response.status, 404);
  const anonymous = await client.GET("/api/v1/coverage");
  assert.equal(anonymous.response.status, 401);
});

test("typed client: the forms API from registration to export, its webhook and /events", async () => {
  const email = `typed-${uuid()}@example.com`;
  const password = "correct horse battery staple";
  const registered = await client.POST("/api/v1/auth/register", {
    body: { email, password, name: "Typed Client" },
    params: { header: { "Idempotency-Key": uuid() } },
  });
  assert.equal(registered.response.status, 201);
  const login = await client.POST("/api/v1/auth/login", { body: { email, password } });
  const cookie = /service_token=[^;]+/.exec(login.response.headers.get("set-cookie") ?? "")?.[0] ??
    assert.fail("login sets the cookie");
  const workspaceId = ok(login).workspaces[0].id;
  const made = await client.POST("/api/v1/auth/tokens", {
    body: { name: "typed client" },
    headers: { cookie },
  });
  const bearer = { authorization: `Bearer ${ok(made).token}` };
  const header = { "X-Workspace-Id": workspaceId };

  const workspace = await client.GET("/api/v1/workspace", { params: { header }, headers: bearer });
  assert.equal(ok(workspace).id, workspaceId);
  const renamed = await client.PATCH("/api/v1/workspace", {
    params: { header },
    body: { name: "Typed workspace", allowed_origins: ["https://www.example.com"] },
    headers: bearer,
  });
  assert.equal(ok(renamed).name, "Typed workspace");

  const hook = await client.POST("/api/v1/webhooks", {
    params: { header: { ...header, "Idempotency-Key": uuid() } },
    body: { url: receiver.url },
    headers: bearer,
  });
  assert.equal(hook.response.status, 201);

  const created: Schemas["Questionnaire"][] = [];
  for (const title of ["First", "Second", "Third"]) {
    const res = await client.POST("/api/v1/questionnaires", {
      params: { header: { ...header, "Idempotency-Key": uuid() } },
      body: {
        title,
        questions: [
          { title: "Which plan?", type: "choice", options: ["free", "pro"] },
          { title: "Anything else?", type: "text", required: false },
        ],
      },
      headers: bearer,
    });
    assert.equal(res.response.status, 201);
    created.push(ok(res));
  }
  const form = created[2];
  const published = await client.POST("/api/v1/questionnaires/{id}/publish", {
    params: { header, path: { id: form.id } },
    headers: bearer,
  });
  assert.equal(ok(published).state, "published");

  const page = await client.GET("/api/v1/questionnaires", {
    params: { header, query: { limit: 2 } },
    headers: bearer,
  });
  assert.equal(ok(page).data.length, 2);
  const cursor = ok(page).next_cursor ?? assert.fail("a second page");
  const rest = await client.GET("/api/v1/questionnaires", {
    params: { header, query: { limit: 2, cursor } },
    headers: bearer,
  });
  assert.deepEqual(ok(rest).data.map((q) => q.id), [created[0].id]);
  assert.equal(ok(rest).has_more, false);

  const slug = { slug: form.slug };
  const shown = await client.GET("/api/v1/public/q/{slug}", { params: { path: slug } });
  const session = await client.POST("/api/v1/public/q/{slug}/sessions", {
    params: { path: slug },
    body: { name: "Visitor", email: "visitor@example.com", loaded_at: service.clock().getTime() },
  });
  const sessionId = ok(session).sessionId;
  const questions: Schemas["Question"][] = ok(shown).questions;
  const key = uuid();
  const answer = () =>
    client.POST("/api/v1/public/q/{slug}/sessions/{sessionId}/answers", {
      params: { path: { ...slug, sessionId }, header: { "Idempotency-Key": key } },
      body: { questionId: questions[0].id, answerText: "pro" },
    });
  assert.equal(ok(await answer()).progress.answered, 1);
  const replayed = await answer();
  assert.equal(replayed.response.headers.get("idempotent-replayed"), "true");
  const last = await client.POST("/api/v1/public/q/{slug}/sessions/{sessionId}/answers", {
    params: { path: { ...slug, sessionId } },
    body: { questionId: questions[1].id, answerText: "" },
  });
  assert.equal(ok(last).isComplete, true);

  const formats: Schemas["ExportRequest"]["format"][] = ["csv", "ndjson"];
  for (const format of formats) {
    const exported = await client.POST("/api/v1/exports", {
      params: { header: { ...header, "Idempotency-Key": uuid() } },
      body: { questionnaire_id: form.id, format },
      headers: bearer,
    });
    assert.equal(exported.response.status, 202);
    const file = await client.GET("/api/v1/exports/{id}/download", {
      params: { header, path: { id: ok(exported).id } },
      headers: bearer,
      parseAs: "text",
    });
    assert.match(String(file.data), format === "csv" ? /^\uFEFF?session_id,/ : /"session_id"/);
  }

  const invalid = await client.POST("/api/v1/questionnaires", {
    params: { header },
    body: { title: "" },
    headers: bearer,
  });
  assert.equal(invalid.response.status, 400);
  assert.equal(invalid.error?.error.field, "title");

  // 4 events: session.started, two answer.submitted, session.completed.
  await receiver.waitFor((received) => received.length >= 4, 60_000);
  const deliveries = await client.GET("/api/v1/webhooks/{id}/deliveries", {
    params: { header, path: { id: ok(hook).id }, query: { limit: 10 } },
    headers: bearer,
  });
  assert.equal(ok(deliveries).data.length, 4);

  // Catching up: the events arrive in the feed shortly after their commit; page from the start
  // until all four are there, each typed by its type and equal to its webhook delivery.
  const events: Schemas["Event"][] = [];
  let after: string | undefined;
  const deadline = Date.now() + 30_000;
  while (events.length < 4) {
    if (Date.now() > deadline) assert.fail(`${events.length} of 4 events in the feed`);
    const feed = ok(
      await client.GET("/api/v1/events", {
        params: { header, query: after ? { after, limit: 2 } : { limit: 2 } },
        headers: bearer,
      }),
    );
    events.push(...feed.data);
    after = events.at(-1)?.id;
    if (!feed.has_more) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const sequences = events.map((event) => event.data.sequence);
  assert.deepEqual(sequences, [1, 2, 3, 4]);
  const completed = events.find((event) => event.type === "session.completed");
  assert.equal(completed?.type, "session.completed");
  if (completed?.type === "session.completed") {
    // Narrowed by type: a completed session's data lists its answers.
    assert.deepEqual(completed.data.answers.map((a) => a.answer), ["pro", ""]);
    assert.equal(completed.data.respondent.email, "visitor@example.com");
  }
  const one = await client.GET("/api/v1/events/{id}", {
    params: { header, path: { id: events[0].id } },
    headers: bearer,
  });
  assert.equal(ok(one).type, "session.started");
  const delivered = new Map(receiver.received.map((delivery) => [delivery.json.id, delivery.json]));
  for (const event of events) assert.deepEqual(event, delivered.get(event.id), event.type);
});

test("typed client: every webhook delivery fits the document's webhooks section", () => {
  assert.ok(receiver.received.length >= 4);
  const types = new Set<string>();
  for (const delivery of receiver.received) {
    const operation = webhookOperation(doc, delivery.json.type);
    assert.ok(operation, `${delivery.json.type} is not in webhooks`);
    const schema = operation.requestBody.content["application/json"].schema;
    assert.deepEqual(validate(doc, schema, delivery.json), [], delivery.json.type);
    const declared = Object.fromEntries(
      operation.parameters.map((p: unknown) => deref(doc, p)).map((p: { name: string }) => [
        p.name,
        p,
      ]),
    );
    assert.deepEqual(conformHeaders(doc, declared, delivery.headers), [], delivery.json.type);
    types.add(delivery.json.type);
  }
  assert.deepEqual([...types].sort(), ["answer.submitted", "session.completed", "session.started"]);
});

test("typed client: the service routes, and a method a path does not accept", async () => {
  const status = await client.GET("/status");
  assert.equal(ok(status).status, "ok");
  const openapi = await client.GET("/api/openapi");
  assert.equal(openapi.response.status, 200);
  // No typed call can use a method the document lacks; its 405 must still be as declared.
  const res = await service.fetch("/api/v1/whoami", { method: "DELETE" });
  assert.deepEqual(await conform(doc, "GET", "/api/v1/whoami", res), []);
  assert.equal(res.status, 405);
  await res.body?.cancel();
});

test("typed client: answers of every kind were checked against the document", () => {
  const statuses = new Set(checked.map((c) => c.split(" ")[2]));
  for (const status of ["200", "201", "202", "400", "401", "404", "422"]) {
    assert.ok(statuses.has(status), `no ${status} was checked`);
  }
});

test("typed client: close", async () => {
  await receiver.close();
  await service.close();
});
