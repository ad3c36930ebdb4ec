// GET /docs: the API reference, rendered by the vendored Redoc from GET /api/openapi, served by
// the service itself under a policy that forbids other origins; in real Chromium it shows every
// tag, operation, webhook, schema, response and security scheme, and no request leaves the
// origin.

import assert from "node:assert/strict";
import { browserTest, launchChromium } from "../embed/_chromium.ts";
import { body, startTestService, test } from "../_server.ts";
import { sha256Hex } from "../../lib/encoding.ts";
import { REDOC_VERSION } from "../../routes/docs.ts";

const service = await startTestService();
// deno-lint-ignore no-explicit-any
type Doc = any;
const doc: Doc = await body(await service.fetch("/api/openapi"));
const VENDORED = new URL("../../vendor/redoc/", import.meta.url);

test("docs: the page and its script come from this service, under a policy naming no other origin", async () => {
  const page = await service.fetch("/docs");
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
  const html = await page.text();
  const csp = page.headers.get("content-security-policy") ?? "";
  assert.match(csp, /default-src 'none'/);
  for (const directive of csp.split(";").map((d) => d.trim())) {
    const sources = directive.split(/\s+/).slice(1);
    for (const source of sources) {
      assert.ok(
        ["'self'", "'none'", "'unsafe-inline'", "data:", "blob:"].includes(source),
        `${directive}: ${source} would allow another origin`,
      );
    }
  }
  assert.doesNotMatch(html, /https?:\/\//, "the page names no other origin");
  const src = /<script src="([^"]+)"><\/script>/.exec(html)?.[1] ?? assert.fail("no script");
  assert.equal(src, `/docs/redoc-${REDOC_VERSION}.js`);
  const script = await service.fetch(src, { headers: { "accept-encoding": "identity" } });
  assert.equal(script.status, 200);
  assert.match(script.headers.get("cache-control") ?? "", /immutable/);
  const served = await script.text();
  // Gzipped where the client accepts it, the same script (fetch decodes it).
  const zipped = await service.fetch(src, { headers: { "accept-encoding": "gzip, br" } });
  assert.equal(zipped.headers.get("content-encoding"), "gzip");
  assert.ok(Number(zipped.headers.get("content-length")) < served.length / 2);
  assert.equal(await zipped.text(), served);
  assert.ok(served.length > 500_000);
  assert.doesNotMatch(served, /cdn\.redoc\.ly/, "the logo from Redocly's CDN is not requested");
});

test("docs: the vendored bundle is Redoc's, unchanged (the checksum vendor/redoc/README.md gives)", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", VENDORED));
  const bundle = await Deno.readTextFile(new URL("redoc.standalone.js", VENDORED));
  assert.ok(readme.includes(`redoc@${REDOC_VERSION}`), "README names the version served");
  assert.ok(readme.includes(await sha256Hex(bundle)), "README gives the bundle's sha256");
});

browserTest(
  "docs: Chromium renders every tag, operation, webhook, schema, response and auth scheme; nothing leaves the origin",
  async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.open(`${service.url}/docs`);
      const operationIds: string[] = [];
      const statuses = new Map<string, string[]>();
      for (const item of [...Object.values(doc.paths), ...Object.values(doc.webhooks)] as Doc[]) {
        for (const op of Object.values(item) as Doc[]) {
          operationIds.push(op.operationId);
          statuses.set(op.operationId, Object.keys(op.responses));
        }
      }
      const last = operationIds.at(-1);
      await page.waitFor(
        `!!document.querySelector('[data-section-id$="operation/${last}"]')`,
        60_000,
      );
      const ids = new Set(
        await page.evaluate<string[]>(
          `[...document.querySelectorAll("[data-section-id]")].map((e) => e.dataset.sectionId)`,
        ),
      );
      const missing = (wanted: string[]) => wanted.filter((id) => !ids.has(id));
      assert.deepEqual(missing(doc.tags.map((t: Doc) => `tag/${t.name}`)), []);
      assert.deepEqual(missing(Object.keys(doc.components.schemas).map((n) => `schema/${n}`)), []);
      assert.deepEqual(
        missing(
          Object.keys(doc.components.securitySchemes).map((n) => `section/Authentication/${n}`),
        ),
        [],
      );
      const rendered = await page.evaluate<Record<string, string>>(`Object.fromEntries(
        [...document.querySelectorAll('[data-section-id*="operation/"]')]
          .map((e) => [e.dataset.sectionId.replace(/.*operation\\//, ""), e.textContent]))`);
      assert.equal(operationIds.length, new Set(operationIds).size);
      for (const id of operationIds) {
        const text = rendered[id] ?? assert.fail(`operation ${id} is not rendered`);
        // Every response, errors included, with its status and description.
        for (const status of statuses.get(id) ?? []) {
          assert.ok(text.includes(status === "default" ? "default" : status), `${id}: ${status}`);
        }
      }
      // Examples: the events feed shows its real example, a typed session.started event.
      assert.match(rendered.getEvents, /session\.started/);
      assert.match(rendered.getEvents, /questionnaire_slug/);

      const origin = new URL(service.url).origin;
      const foreign = page.requests.filter((url) =>
        !url.startsWith(`${origin}/`) && !url.startsWith("data:") &&
        !url.startsWith(`blob:${origin}/`)
      );
      assert.deepEqual(foreign, [], "requests that left the origin");
      assert.deepEqual(
        page.console.filter((line) => /Content Security Policy|exception/i.test(line)),
        [],
      );
    } finally {
      await browser.close();
    }
  },
);

test("docs: close", async () => {
  await service.close();
});
