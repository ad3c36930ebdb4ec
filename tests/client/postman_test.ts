// Postman: the collection `deno task postman` makes (tests/client/postman.ts: Postman's converter,
// openapi-to-postmanv2, then one variable per credential) runs in newman against a seeded
// service with every credential set: no 401 where a credential is given, and no request
// refused for its example values (400 or 422).

import assert from "node:assert/strict";
import newman from "newman";
import { postmanCollection, requests } from "./postman.ts";
import { admin, importLines } from "../ads/_fixture.ts";
import { registerUser } from "../forms/_forms.ts";
import { body, startTestService, test } from "../_server.ts";

/** The week of the since and until examples. */
const EXAMPLES = Date.parse("2026-11-20T00:00:00Z");
const METRICS_TOKEN = "metrics-token-for-the-postman-test-0123456789";
const service = await startTestService({ env: { METRICS_TOKEN } });

// deno-lint-ignore no-explicit-any
type Json = any;

interface Execution {
  name: string;
  method: string;
  url: string;
  auth: string;
  status: number;
  body: string;
}

function run(collection: Json, variables: Record<string, string>): Promise<Execution[]> {
  return new Promise((resolve, reject) => {
    newman.run({
      collection,
      envVar: Object.entries(variables).map(([key, value]) => ({ key, value })),
      reporters: [],
      timeoutRequest: 30_000,
    }, (err: Error | null, summary: Json) => {
      if (err) return reject(err);
      resolve(summary.run.executions.map((e: Json) => ({
        name: e.item.name,
        method: e.request.method,
        url: e.request.url.toString(),
        auth: e.item.request.auth?.type ?? "none",
        status: e.response?.code ?? 0,
        body: e.response?.stream ? new TextDecoder().decode(e.response.stream).slice(0, 300) : "",
      })));
    });
  });
}

test("postman: each credential has its own variable, bearer before the cookie", async () => {
  const doc = await body<Json>(await service.fetch("/api/openapi"));
  const collection = await postmanCollection(doc);
  const tokens = new Map<string, Set<string>>();
  for (const item of requests(collection.item)) {
    const token = item.request.auth?.bearer?.[0]?.value ?? "none";
    const area = item.request.url.path.join("/").replace(/^api\/(v1\/)?/, "").split("/")[0];
    tokens.set(token, new Set([...tokens.get(token) ?? [], area]));
  }
  assert.ok(tokens.get("{{adsKey}}")?.has("ads"));
  assert.ok(tokens.get("{{formsToken}}")?.has("questionnaires"));
  assert.deepEqual([...tokens.get("{{metricsToken}}") ?? []], ["metrics"]);
  assert.ok(!tokens.get("{{adsKey}}")?.has("questionnaires"));
  assert.ok(!tokens.has("{{bearerToken}}") && !tokens.has("{{apiKey}}"));
  const names = collection.variable.map((v: Json) => v.key);
  for (const name of ["baseUrl", "adsKey", "formsToken", "metricsToken", "workspaceId"]) {
    assert.ok(names.includes(name), name);
  }
});

test("postman: newman runs the whole collection, optional parameters on: no 401 with credentials, none refused for its examples", async () => {
  // The seeded service: the examples' station and brand, an ads account granted them around now
  // with a key of every permission, a forms user with a bearer token, and the metrics token.
  const now = service.clock().getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  const imported = await importLines(service, [
    { type: "snapshot", id: "postman", exported_at: iso(now - 86_400_000) },
    { type: "station", id: "radio-nord", name: "Radio Nord" },
    { type: "brand", id: "brand-7", name: "Fresh Cola" },
  ], true);
  assert.equal(imported.status, 0, imported.err.join("\n"));
  await admin(service, "account", "create", "postman", "--name", "Postman");
  await admin(
    service,
    ...["grant", "postman", "--stations", "radio-nord", "--brands", "brand-7"],
    // The period covers both the default one (the last 7 days) and the examples' week.
    ...["--from", iso(Math.min(now, EXAMPLES) - 60 * 86_400_000), "--until", iso(now + 86_400_000)],
  );
  const created = await admin(
    service,
    ...["key", "create", "postman", "--permissions", "ads:read,reports:read,coverage:read"],
  );
  const adsKey = created.at(-1) ?? assert.fail("no key");
  const owner = await registerUser(service);
  const made = await service.fetch("/api/v1/auth/tokens", {
    method: "POST",
    headers: owner.headers(),
    body: JSON.stringify({ name: "postman" }),
  });
  const formsToken = (await body<{ token: string }>(made)).token;

  const doc = await body<Json>(await service.fetch("/api/openapi"));
  const collection = await postmanCollection(doc);
  // Logging out revokes the token the other requests use: it runs last, once.
  const isLogout = (item: Json) =>
    Boolean(item.request) && /(^|\/)auth\/logout$/.test(item.request.url.path.join("/"));
  const logouts = [...requests(collection.item)].filter(isLogout);
  const drop = (items: Json[]): Json[] =>
    items.filter((item) => !isLogout(item)).map((item) =>
      item.item ? { ...item, item: drop(item.item) } : item
    );
  collection.item = [...drop(collection.item), logouts[0]];
  // The optional parameters too, with their examples, except the positions a server hands out.
  for (const item of requests(collection.item)) {
    for (const param of item.request.url.query ?? []) {
      if (!["cursor", "after"].includes(param.key)) delete param.disabled;
    }
  }

  const executions = await run(collection, {
    baseUrl: service.url,
    adsKey,
    formsToken,
    metricsToken: METRICS_TOKEN,
    workspaceId: owner.workspaceId,
  });
  const line = (e: Execution) => `${e.status} ${e.method} ${e.url} ${e.body}`;
  const total = [...requests(collection.item)].length;
  assert.equal(executions.length, total);
  const unauthenticated = executions.filter((e) => e.auth === "bearer" && e.status === 401);
  assert.deepEqual(unauthenticated.map(line), [], "401 with a credential given");
  const refused = executions.filter((e) => e.status === 400 || e.status === 422);
  assert.deepEqual(refused.map(line), [], "refused for its example values");
  // What else answers: 404, an example id that names nothing in this service, and 409, the
  // deprecated alias creating again what its /api/v1/ twin just created.
  const other = executions.filter((e) => e.status >= 300 && ![404, 409].includes(e.status));
  assert.deepEqual(other.map(line), []);
  assert.ok(executions.filter((e) => e.status < 300).length >= 40);
});

test("postman: close", async () => {
  await service.close();
});
