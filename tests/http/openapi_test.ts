// GET /api/openapi: generated from the route tables, complete, SemVer-versioned, lint-clean.

import assert from "node:assert/strict";
import { allRoutes } from "../../routes/index.ts";
import { body, startTestService, test } from "../_server.ts";

const service = await startTestService();

// deno-lint-ignore no-explicit-any
type Doc = any;

test("openapi: the document is OpenAPI 3.1 with a SemVer X-Spec-Version", async () => {
  const res = await service.fetch("/api/openapi");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("x-spec-version") ?? "", /^\d+\.\d+\.\d+$/);
  const doc = await body<Doc>(res);
  assert.equal(doc.openapi, "3.1.0");
  assert.equal(doc.info.version, res.headers.get("x-spec-version"));
});

test("openapi: every registered route appears with its method, parameters and body", async () => {
  const doc = await body<Doc>(await service.fetch("/api/openapi"));
  assert.ok(allRoutes.length >= 2);
  for (const route of allRoutes) {
    const op = doc.paths[route.path]?.[route.method.toLowerCase()];
    assert.ok(op, `${route.method} ${route.path} is missing from the document`);
    const names = (op.parameters ?? []).map((p: { name: string }) => p.name);
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

test("openapi: npx @redocly/cli lint reports no errors", async () => {
  const doc = await (await service.fetch("/api/openapi")).text();
  const dir = await Deno.makeTempDir();
  const file = `${dir}/openapi.json`;
  await Deno.writeTextFile(file, doc);
  const result = await new Deno.Command("npx", {
    args: ["-y", "@redocly/cli@2.77.0", "lint", "--format=summary", file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(result.stdout) + new TextDecoder().decode(result.stderr);
  await Deno.remove(dir, { recursive: true });
  // redocly exits non-zero when the document has an error (warnings do not fail it).
  assert.equal(result.code, 0, output);
});

test("openapi: close the service", async () => {
  await service.close();
});
