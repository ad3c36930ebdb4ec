// GET /api/openapi: generated from the route tables, complete, SemVer-versioned, lint-clean,
// and good enough to generate clients from (components, examples, headers, webhooks).

import assert from "node:assert/strict";
import { allRoutes } from "../../routes/index.ts";
import { schemaRegistry } from "../../lib/http/openapi/schemas.ts";
import * as s from "../../lib/http/schema.ts";
import { body, startTestService, test } from "../_server.ts";
import { validate } from "../_json_schema.ts";

const service = await startTestService();
const REDOCLY = "@redocly/cli@2.77.0";
const REDOCLY_CONFIG = new URL("../../redocly.yaml", import.meta.url).pathname;

// deno-lint-ignore no-explicit-any
type Doc = any;

const doc: Doc = await body(await service.fetch("/api/openapi"));
const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every operation of the document, with its path and method. */
function operations(): { path: string; method: string; op: Doc }[] {
  const out = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Doc>)) {
    for (const method of METHODS) if (item[method]) out.push({ path, method, op: item[method] });
  }
  return out;
}

function deref(node: Doc): Doc {
  while (node?.$ref) {
    node = node.$ref.slice(2).split("/").reduce((n: Doc, p: string) => n[p], doc);
  }
  return node;
}

/** Every schema object inside `node`, with where it is. */
function* schemasIn(node: Doc, where: string): Generator<[string, Doc]> {
  if (typeof node !== "object" || node === null) return;
  if (typeof node.type === "string" || Array.isArray(node.type)) yield [where, node];
  for (const [key, value] of Object.entries(node)) {
    if (key === "examples" || key === "example") continue;
    yield* schemasIn(value, `${where}/${key}`);
  }
}

test("openapi: the document is OpenAPI 3.1 with a SemVer X-Spec-Version", async () => {
  const res = await service.fetch("/api/openapi");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("x-spec-version") ?? "", /^\d+\.\d+\.\d+$/);
  const served = await body<Doc>(res);
  assert.equal(served.openapi, "3.1.0");
  assert.equal(served.info.version, res.headers.get("x-spec-version"));
  assert.deepEqual(served.servers.map((server: Doc) => server.url), [
    service.app.config.publicBaseUrl,
  ]);
});

test("openapi: every registered route appears with its method, parameters and body", () => {
  assert.ok(allRoutes.length >= 2);
  for (const route of allRoutes) {
    const op = doc.paths[route.path]?.[route.method.toLowerCase()];
    assert.ok(op, `${route.method} ${route.path} is missing from the document`);
    const names = (op.parameters ?? []).map((p: Doc) => deref(p).name);
    for (const name of [...route.paramNames, ...Object.keys(route.query ?? {})]) {
      assert.ok(names.includes(name), `${route.method} ${route.path} lacks parameter ${name}`);
    }
    assert.equal(Boolean(op.requestBody), Boolean(route.body), `${route.path} request body`);
    const alias = route.path.startsWith("/api/v1/") ? "/api" + route.path.slice(7) : null;
    if (alias) {
      const aliasOp = doc.paths[alias]?.[route.method.toLowerCase()];
      assert.ok(aliasOp?.deprecated, `deprecated alias ${alias} is missing`);
    }
  }
});

test("openapi: npx @redocly/cli lint reports no error and no warning", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/openapi.json`;
  await Deno.writeTextFile(file, JSON.stringify(doc));
  const result = await new Deno.Command("npx", {
    args: ["-y", REDOCLY, "lint", "--format=json", `--config=${REDOCLY_CONFIG}`, file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  await Deno.remove(dir, { recursive: true });
  const out = new TextDecoder().decode(result.stdout);
  const report = JSON.parse(out.slice(out.indexOf("{")));
  const problems = report.problems.map((p: Doc) =>
    `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`
  );
  assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 }, problems.join("\n"));
});

test("openapi: every rule turned off in redocly.yaml says why", async () => {
  const lines = (await Deno.readTextFile(REDOCLY_CONFIG)).split("\n");
  lines.forEach((line, i) => {
    if (/:\s*off\s*$/.test(line)) assert.match(lines[i - 1], /^\s*#/, `no reason above: ${line}`);
  });
});

test("openapi: request and JSON response bodies are named components", () => {
  for (const { path, method, op } of operations()) {
    const request = op.requestBody?.content?.["application/json"]?.schema;
    if (request) assert.match(request.$ref ?? "", /^#\/components\/schemas\//, `${method} ${path}`);
    for (const [status, response] of Object.entries(op.responses as Record<string, Doc>)) {
      const schema = deref(response).content?.["application/json"]?.schema;
      // Only objects make anonymous types; the document itself is any JSON.
      if (!schema || (!schema.$ref && schema.type !== "object")) continue;
      assert.match(schema.$ref ?? "", /^#\/components\/schemas\//, `${method} ${path} ${status}`);
    }
  }
  for (const name of ["Error", "Questionnaire", "QuestionnaireSummaryPage", "OccurrencePage"]) {
    assert.ok(doc.components.schemas[name], `components.schemas.${name}`);
  }
});

test("openapi: every request and success response has an example that fits its schema", () => {
  const check = (where: string, media: Doc) => {
    assert.ok(media.example !== undefined, `${where}: no example`);
    if (typeof media.example === "string" && media.schema?.type === "string") return;
    assert.deepEqual(validate(doc, media.schema, media.example), [], where);
  };
  for (const { path, method, op } of operations()) {
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
      check(`${method} ${path} request ${type}`, media);
    }
    for (const [status, response] of Object.entries(op.responses as Record<string, Doc>)) {
      for (const [type, media] of Object.entries(deref(response).content ?? {})) {
        check(`${method} ${path} ${status} ${type}`, media);
      }
    }
  }
  for (const [event, item] of Object.entries(doc.webhooks as Record<string, Doc>)) {
    check(`webhook ${event}`, item.post.requestBody.content["application/json"]);
  }
  for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Doc>)) {
    for (const example of schema.examples ?? []) {
      assert.deepEqual(validate(doc, schema, example), [], `components.schemas.${name}`);
    }
  }
});

test("openapi: every response declares the headers the pipeline sends", () => {
  const headersOf = (response: Doc) => Object.keys(deref(response).headers ?? {});
  const writes = new Set(
    allRoutes.filter((r) => r.idempotent).map((r) => `${r.method.toLowerCase()} ${r.path}`),
  );
  for (const { path, method, op } of operations()) {
    const v1 = path.startsWith("/api/v1/");
    // An unprefixed alias; a v1 route kept deprecated for compatibility sends no alias headers.
    const alias = op.deprecated === true && !v1;
    for (const [status, response] of Object.entries(op.responses as Record<string, Doc>)) {
      const names = headersOf(response);
      const where = `${method} ${path} ${status}`;
      assert.ok(names.includes("X-Trace-Id"), `${where}: X-Trace-Id`);
      if (v1 || alias) assert.ok(names.includes("X-API-Version"), `${where}: X-API-Version`);
      if (alias) {
        for (const h of ["Deprecation", "Sunset", "Link"]) assert.ok(names.includes(h), where);
      }
      if (["429", "503"].includes(status)) assert.ok(names.includes("Retry-After"), where);
      if (status === "405") assert.ok(names.includes("Allow"), where);
      const success = Number(status) < 300;
      if (success && path.startsWith("/api/v1/") && op.tags[0] === "ads") {
        for (
          const h of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "RateLimit", "RateLimit-Policy"]
        ) {
          assert.ok(names.includes(h), `${where}: ${h}`);
        }
      }
      if (success && writes.has(`${method} ${path}`)) {
        assert.ok(names.includes("Idempotent-Replayed"), `${where}: Idempotent-Replayed`);
      }
    }
    assert.equal(
      op.responses["405"]?.$ref,
      "#/components/responses/MethodNotAllowed",
      `${method} ${path}: 405`,
    );
  }
  assert.equal(doc.components.headers["X-Trace-Id"].required, true);
});

test("openapi: shared errors are reusable responses with the error envelope", () => {
  for (const [name, response] of Object.entries(doc.components.responses as Record<string, Doc>)) {
    assert.equal(
      response.content["application/json"].schema.$ref,
      "#/components/schemas/Error",
      name,
    );
  }
  const refs = operations().flatMap(({ op }) =>
    Object.values(op.responses as Record<string, Doc>).map((r) => r.$ref).filter(Boolean)
  );
  for (const name of ["BadRequest", "Unauthorized", "NotFound", "TooManyRequests"]) {
    assert.ok(refs.includes(`#/components/responses/${name}`), name);
  }
});

test("openapi: X-Workspace-Id and Idempotency-Key are declared where they are read", () => {
  for (const route of allRoutes) {
    const op = doc.paths[route.path][route.method.toLowerCase()];
    const headers = (op.parameters ?? []).map(deref).filter((p: Doc) => p.in === "header")
      .map((p: Doc) => p.name);
    // The invitee's routes are about the user alone (lib/forms/auth.ts signedIn): no workspace.
    const signedIn = route.auth.security.some((scheme) => "sessionCookie" in scheme) &&
      !route.path.startsWith("/api/v1/invitations");
    assert.equal(headers.includes("X-Workspace-Id"), signedIn, `${route.path}: X-Workspace-Id`);
    assert.equal(headers.includes("Idempotency-Key"), Boolean(route.idempotent), route.path);
  }
});

test("openapi: v1 routes kept for compatibility are marked deprecated, their optional body not required", () => {
  // The invitee's routes of spec 1.2.0 (routes/forms/invitations.ts): v1 keeps them (§9).
  const kept = [
    ["/api/v1/invitations", "get"],
    ["/api/v1/invitations/{id}/accept", "post"],
    ["/api/v1/invitations/{id}/decline", "post"],
  ];
  for (const [path, method] of kept) {
    const op = doc.paths[path]?.[method];
    assert.equal(op?.deprecated, true, `${method} ${path}`);
    assert.match(op.description, /\/api\/v1\/invitations\/lookup/, "names its successor");
    if (method === "post") assert.equal(op.requestBody.required, false, path);
  }
  const current = doc.paths["/api/v1/invitations/accept"].post;
  assert.equal(current.deprecated, undefined);
  assert.equal(current.requestBody.required, true);
});

test("openapi: the export download declares both of its content types", () => {
  const content = doc.paths["/api/v1/exports/{id}/download"].get.responses["200"].content;
  const types = Object.keys(content).map((t) => t.split(";")[0]);
  assert.deepEqual(types.sort(), ["application/x-ndjson", "text/csv"]);
});

test("openapi: no bound that is not a rule, and instants are date-times", () => {
  for (const [where, schema] of schemasIn(doc, "#")) {
    assert.notEqual(schema.minimum, Number.MIN_SAFE_INTEGER, where);
    // A session id is below 2^53 by rule (contract.md §3); no other integer has that bound.
    if (schema.maximum === Number.MAX_SAFE_INTEGER) assert.match(where, /sessionId/, where);
    // The one string with a limit of 10,000 characters is an answer (its rule).
    if (schema.maxLength === 10_000) assert.match(where, /answerText$/, where);
    for (const [name, property] of Object.entries(schema.properties ?? {}) as [string, Doc][]) {
      // loaded_at is epoch milliseconds by contract (contract.md §1).
      if (!/(_at|^since|^until|^as_of)$/.test(name) || name === "loaded_at") continue;
      const formats = [deref(property), ...(property.anyOf ?? []).map(deref)].map((schema) =>
        schema.format
      );
      assert.ok(formats.includes("date-time"), `${where}/properties/${name} is an instant`);
    }
  }
});

test("openapi: security schemes are named for what they are", () => {
  const schemes = doc.components.securitySchemes;
  assert.deepEqual(schemes.adsKey, { ...schemes.adsKey, type: "http", scheme: "bearer" });
  assert.deepEqual(schemes.bearerToken, { ...schemes.bearerToken, type: "http", scheme: "bearer" });
  assert.deepEqual(schemes.sessionCookie, {
    ...schemes.sessionCookie,
    type: "apiKey",
    in: "cookie",
    name: "service_token",
  });
  for (const { path, op } of operations()) {
    for (const requirement of op.security) {
      for (const name of Object.keys(requirement)) assert.ok(schemes[name], `${path}: ${name}`);
    }
  }
  assert.deepEqual(doc.paths["/api/v1/ads"].get.security, [{ adsKey: [] }]);
});

test("openapi: every tag has a description", () => {
  const used = new Set(operations().flatMap(({ op }) => op.tags));
  for (const tag of doc.tags) assert.ok(tag.description, tag.name);
  for (const name of used) assert.ok(doc.tags.some((t: Doc) => t.name === name), name);
});

test("openapi: webhooks describe each event's body and its signature headers", () => {
  assert.deepEqual(Object.keys(doc.webhooks).sort(), [
    "answer.submitted",
    "ping",
    "session.completed",
    "session.started",
  ]);
  for (const [event, item] of Object.entries(doc.webhooks as Record<string, Doc>)) {
    const schema = deref(item.post.requestBody.content["application/json"].schema);
    assert.deepEqual(schema.properties.type.enum, [event]);
    const headers = item.post.parameters.map(deref);
    for (
      const name of [
        "x-service-signature",
        "x-service-event",
        "x-service-delivery",
        "x-service-timestamp",
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
      ]
    ) {
      const header = headers.find((h: Doc) => h.name === name);
      assert.ok(header?.in === "header" && header.required, `${event}: ${name}`);
    }
  }
});

test("openapi: /try/{slug} answers as documented: 200 for any well-formed slug, else 404", async () => {
  const responses = doc.paths["/try/{slug}"].get.responses;
  assert.match(responses["200"].description, /any well-formed slug/);
  const unknown = await service.fetch("/try/no-such-questionnaire");
  assert.equal(unknown.status, 200);
  await unknown.body?.cancel();
  assert.match(responses["404"].description, /Not a slug/);
  const malformed = await service.fetch("/try/-bad");
  assert.equal(malformed.status, 404);
  await malformed.body?.cancel();
});

test("openapi: a named schema is one component, and one name cannot hold two schemas", () => {
  const registry = schemaRegistry();
  const period = s.named("Period", s.object({ since: s.string() }));
  const wrapper = s.object({ a: period, b: s.nullable(period) });
  assert.deepEqual(registry.refer(wrapper.json).properties, {
    a: { $ref: "#/components/schemas/Period" },
    b: { anyOf: [{ $ref: "#/components/schemas/Period" }, { type: "null" }] },
  });
  assert.throws(
    () => registry.refer(s.named("Period", s.object({ until: s.string() })).json),
    /two different schemas are named Period/,
  );
});

test("openapi: every parameter has an example that fits its schema", () => {
  const items = [
    ...operations().map(({ path, method, op }) => ({ where: `${method} ${path}`, op })),
    ...Object.entries(doc.webhooks as Record<string, Doc>).map(([event, item]) => ({
      where: `webhook ${event}`,
      op: item.post,
    })),
  ];
  let count = 0;
  for (const { where, op } of items) {
    for (const parameter of (op.parameters ?? []).map(deref)) {
      const what = `${where} ${parameter.in} ${parameter.name}`;
      assert.ok(parameter.example !== undefined, `${what}: no example`);
      assert.deepEqual(validate(doc, parameter.schema, parameter.example), [], what);
      count++;
    }
  }
  assert.ok(count > 50, `${count} parameters`);
});

test("openapi: where an operation takes since and until, their examples make a period", () => {
  for (const { path, method, op } of operations()) {
    const example = (name: string) =>
      (op.parameters ?? []).map(deref).find((p: Doc) => p.name === name)?.example;
    const [since, until] = [example("since"), example("until")];
    if (since === undefined || until === undefined) continue;
    assert.ok(Date.parse(since) < Date.parse(until), `${method} ${path}: ${since} to ${until}`);
  }
});

test("openapi: a request property with a default is optional in openapi-typescript's default types", () => {
  // With its defaults (defaultNonNullable), openapi-typescript makes a component's property
  // that carries `default` required; a request may leave it out, so none carries one directly.
  const seen = new Set<string>();
  const walk = (node: Doc, where: string) => {
    if (typeof node !== "object" || node === null) return;
    if (node.$ref) {
      if (seen.has(node.$ref)) return;
      seen.add(node.$ref);
      return walk(deref(node), node.$ref);
    }
    for (const [name, property] of Object.entries((node.properties ?? {}) as Record<string, Doc>)) {
      if (!(node.required ?? []).includes(name)) {
        assert.equal(property.default, undefined, `${where}/properties/${name} has a default`);
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== "example" && key !== "examples") walk(value, `${where}/${key}`);
    }
  };
  for (const { path, method, op } of operations()) walk(op.requestBody, `${method} ${path}`);
  assert.ok(seen.has("#/components/schemas/QuestionInput"));
  const required = doc.components.schemas.QuestionInput.properties.required;
  assert.deepEqual(required.allOf.find((part: Doc) => "default" in part), { default: true });
});

test("openapi: /events items are typed by their type, with the webhooks section's components", () => {
  const feed = deref(doc.paths["/api/v1/events"].get.responses["200"]).content["application/json"];
  const page = deref(feed.schema);
  assert.equal(page.properties.data.items.$ref, "#/components/schemas/Event");
  const event = doc.components.schemas.Event;
  assert.equal(event.discriminator.propertyName, "type");
  for (const [type, ref] of Object.entries(event.discriminator.mapping as Record<string, string>)) {
    assert.ok(event.oneOf.some((branch: Doc) => branch.$ref === ref), type);
    const webhook = doc.webhooks[type].post.requestBody.content["application/json"].schema;
    assert.equal(webhook.$ref, ref, `${type}: the same component as its webhook`);
    assert.deepEqual(deref({ $ref: ref }).properties.type.enum, [type]);
  }
  assert.deepEqual(Object.keys(event.discriminator.mapping).sort(), [
    "answer.submitted",
    "session.completed",
    "session.started",
  ]);
  // The example is a real event, with its data.
  assert.equal(feed.example.data[0].type, "session.started");
  assert.equal(feed.example.data[0].data.sequence, 1);
});

test("openapi: where a bearer token and the cookie both apply, the bearer comes first", () => {
  let both = 0;
  for (const { path, method, op } of operations()) {
    const names = op.security.map((requirement: Doc) => Object.keys(requirement)[0]);
    if (!names.includes("sessionCookie")) continue;
    both++;
    assert.deepEqual(names, ["bearerToken", "sessionCookie"], `${method} ${path}`);
  }
  assert.ok(both > 10);
});

test("openapi: the document cites no file its readers do not have", () => {
  // A reader of /docs has the document, not the project's notes (ads-api.md, contract.md ...).
  const text = JSON.stringify(doc);
  assert.deepEqual(text.match(/[\w-]+\.md\b/g) ?? [], []);
});

test("openapi: close the service", async () => {
  await service.close();
});
