// embed.js in a real browser: headless Chromium loads a page of another origin with the script
// tag, a visitor fills in every question type, hits validation errors, double-clicks submit,
// and the database holds exactly one complete session. Screenshots go to tests/artifacts/.

import assert from "node:assert/strict";
import { browserTest, launchChromium } from "./_chromium.ts";
import { publishedQuestionnaire, registerUser } from "../forms/_forms.ts";
import { startTestService, test } from "../_server.ts";
import { EVERY_TYPE } from "../forms/_workspace.ts";

const ARTIFACTS = new URL("../artifacts/", import.meta.url).pathname;

const service = await startTestService();

browserTest(
  "embed: a visitor completes every question type once, despite errors and double clicks",
  async () => {
    const owner = await registerUser(service);
    const form = await publishedQuestionnaire(service, owner, EVERY_TYPE);
    // The host page lives on another origin than the API, as on a customer's site.
    const host = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () =>
        new Response(
          `<!doctype html><html><head><meta charset="utf-8"><title>Host</title></head><body>
<h1>A customer's page</h1>
<script src="${service.url}/embed.js" data-form="${form.slug}"></script>
<p>After the form.</p></body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        ),
    );
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    const browser = await launchChromium();
    try {
      const page = await browser.open(`http://127.0.0.1:${host.addr.port}/`);
      const root = `document.querySelector("[data-onda-form]").shadowRoot`;
      const q = (selector: string) => `${root}.querySelector(${JSON.stringify(selector)})`;

      // Rendered in place: right after the script tag, before the following paragraph.
      assert.equal(
        await page.waitFor(
          `document.querySelector("[data-onda-form]")?.nextElementSibling?.tagName`,
        ),
        "P",
      );
      assert.equal(await page.waitFor(`${q("h2")}?.textContent`), "Feedback");

      // An empty name: the service's message appears next to the name field.
      await page.type(q("input[name=email]"), "ana@example.com");
      await page.click(q("button[data-action=start]"));
      const nameError = await page.waitFor<string>(`${q("[data-field=name]")}.textContent`);
      assert.match(nameError, /name/);

      await page.type(q("input[name=name]"), "Ana Souza");
      await page.click(q("button[data-action=start]"), 2);

      for (const question of form.questions) {
        await page.waitFor(`${q("form")}?.dataset.questionId === "${question.id}"`);
        const progress = await page.evaluate<string>(`${q("[role=progressbar]")}.ariaValueNow`);
        assert.equal(progress, String(form.questions.indexOf(question)));
        const input = `input[name=q${question.id}]`;
        switch (question.type) {
          case "text":
            await page.type(q(input), 'Faster exports, please, and "dark mode"');
            break;
          case "email": {
            await page.type(q(input), "not-an-e-mail");
            await page.click(q("button[data-action=answer]"));
            const message = await page.waitFor<string>(
              `${q("[data-field=answerText]")}.textContent`,
            );
            assert.match(message, /e-mail/i, "the service's validation message is shown");
            await page.screenshot(`${ARTIFACTS}embed_validation_error.png`);
            await page.evaluate(`${q(input)}.value = ""`);
            await page.type(q(input), "ana.souza@example.com");
            break;
          }
          case "number":
            await page.type(q(input), "12");
            break;
          case "choice":
            await page.click(`${q(`${input}[value="Pro"]`)}.parentElement`);
            break;
          case "rating":
            await page.click(`${q(`${input}[value="4"]`)}.parentElement`);
            break;
        }
        const last = question === form.questions[form.questions.length - 1];
        await page.click(q("button[data-action=answer]"), last ? 2 : 1);
      }

      const done = await page.waitFor<string>(`${q("[role=status]")}?.textContent`);
      assert.match(done, /Thank you/);
      assert.equal(
        await page.evaluate(`${q("[role=progressbar]")}.ariaValueNow`),
        String(form.questions.length),
      );
      await page.screenshot(`${ARTIFACTS}embed_completed.png`);
      assert.deepEqual(page.console.filter((line) => line.startsWith("exception")), []);
    } finally {
      await browser.close();
      await host.shutdown();
    }

    const sessions = await service.db.sql<
      { id: number; name: string; email: string; completed_at: Date | null; answered: number }
    >`select id, name, email, completed_at, answered from sessions
    where questionnaire_id = ${form.id}`;
    assert.equal(sessions.length, 1, "exactly one session despite the double click");
    assert.equal(sessions[0].name, "Ana Souza");
    assert.equal(sessions[0].email, "ana@example.com");
    assert.ok(sessions[0].completed_at, "the session is complete");
    const answers = await service.db.sql<{ question_id: number; answer: string }>`
    select question_id, answer from answers where session_id = ${sessions[0].id}
    order by question_id`;
    const byType = Object.fromEntries(
      answers.map((a) => [form.questions.find((q) => q.id === a.question_id)!.type, a.answer]),
    );
    assert.deepEqual(byType, {
      text: 'Faster exports, please, and "dark mode"',
      email: "ana.souza@example.com",
      number: "12",
      choice: "Pro",
      rating: "4",
    });
    // Every POST of the script carried an Idempotency-Key (the service keeps one row per key).
    const [keys] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from idempotency_keys where route like 'POST /api/v1/public/%'`;
    assert.ok(keys.n >= 7, `expected a key per logical POST, found ${keys.n}`);
  },
);

browserTest(
  "embed: a visitor completes a bot-protected questionnaire: token, proof of work in a Worker, minimum fill time, honeypot left empty",
  async () => {
    const owner = await registerUser(service);
    const form = await publishedQuestionnaire(service, owner, [
      { title: "Your comment", type: "text" },
    ], { bot_protection: true, min_fill_seconds: 2 });
    const host = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () =>
        new Response(
          `<!doctype html><html><head><meta charset="utf-8"><title>Host</title></head><body>
<script>
  // Counts the Workers the page starts and their answers: the proof of work must be solved
  // off the main thread.
  window.workersStarted = 0;
  window.workerAnswers = 0;
  const RealWorker = window.Worker;
  window.Worker = function (url) {
    window.workersStarted++;
    const worker = new RealWorker(url);
    worker.addEventListener("message", () => window.workerAnswers++);
    return worker;
  };
</script>
<script src="${service.url}/embed.js" data-form="${form.slug}"></script></body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        ),
    );
    const browser = await launchChromium();
    let startedAfterMs = 0;
    try {
      const page = await browser.open(`http://127.0.0.1:${host.addr.port}/`);
      const opened = Date.now();
      const root = `document.querySelector("[data-onda-form]").shadowRoot`;
      const q = (selector: string) => `${root}.querySelector(${JSON.stringify(selector)})`;
      assert.equal(await page.waitFor(`${q("h2")}?.textContent`), "Feedback");
      // The honeypot is a plain text field, out of sight and out of the tab order.
      const trap = await page.evaluate<{ left: number; tabIndex: number }>(`(() => {
        const input = ${q("input[name=website]")};
        return { left: input.getBoundingClientRect().right, tabIndex: input.tabIndex };
      })()`);
      assert.ok(trap.left <= 0, "the honeypot is off screen");
      assert.equal(trap.tabIndex, -1);
      // A fast visitor: the start is sent once the minimum fill time has passed, not refused.
      await page.type(q("input[name=name]"), "Ana Souza");
      await page.type(q("input[name=email]"), "ana@example.com");
      await page.click(q("button[data-action=start]"));
      await page.waitFor(`${q("form")}?.dataset.questionId === "${form.questions[0].id}"`);
      startedAfterMs = Date.now() - opened;
      await page.type(q(`input[name=q${form.questions[0].id}]`), "Smooth.");
      await page.click(q("button[data-action=answer]"));
      assert.match(await page.waitFor<string>(`${q("[role=status]")}?.textContent`), /Thank you/);
      assert.deepEqual(await page.evaluate("[window.workersStarted, window.workerAnswers]"), [
        1,
        1,
      ]);
      assert.deepEqual(
        page.console.filter((l) => /exception|Content Security Policy|error/i.test(l)),
        [],
      );
    } finally {
      await browser.close();
      await host.shutdown();
    }
    assert.ok(startedAfterMs >= 2000, `the start waited out the minimum (${startedAfterMs} ms)`);
    const sessions = await service.db.sql<{ completed_at: Date | null }>`
      select completed_at from sessions where questionnaire_id = ${form.id}`;
    assert.equal(sessions.length, 1);
    assert.ok(sessions[0].completed_at, "the session is complete");
    const [spent] = await service.db.sql<{ n: number }>`
      select count(*)::int as n from form_tokens_used`;
    assert.equal(spent.n, 1, "the start spent its form token");
  },
);

browserTest(
  "embed: the /try page renders the questionnaire in a browser under its own CSP",
  async () => {
    const owner = await registerUser(service);
    const form = await publishedQuestionnaire(service, owner, EVERY_TYPE);
    const browser = await launchChromium();
    try {
      const page = await browser.open(`${service.url}/try/${form.slug}`);
      const root = `document.querySelector("[data-onda-form]").shadowRoot`;
      assert.equal(await page.waitFor(`${root}?.querySelector("h2")?.textContent`), "Feedback");
      assert.ok(await page.evaluate(`${root}.querySelector("input[name=email]") !== null`));
      assert.deepEqual(page.console.filter((l) => /exception|Content Security Policy/.test(l)), []);
    } finally {
      await browser.close();
    }
  },
);

browserTest(
  "embed: on the /try page a bot-protected questionnaire starts, its Worker allowed by the CSP",
  async () => {
    const owner = await registerUser(service);
    const form = await publishedQuestionnaire(service, owner, [
      { title: "Your comment", type: "text" },
    ], { bot_protection: true, min_fill_seconds: 0 });
    const browser = await launchChromium();
    try {
      const page = await browser.open(`${service.url}/try/${form.slug}`);
      const root = `document.querySelector("[data-onda-form]").shadowRoot`;
      const q = (selector: string) => `${root}.querySelector(${JSON.stringify(selector)})`;
      await page.type(q("input[name=name]"), "Ana Souza");
      await page.type(q("input[name=email]"), "ana@example.com");
      await page.click(q("button[data-action=start]"));
      await page.waitFor(`${q("form")}?.dataset.questionId === "${form.questions[0].id}"`);
      assert.deepEqual(page.console.filter((l) => /exception|Content Security Policy/.test(l)), []);
    } finally {
      await browser.close();
    }
  },
);

test("embed: /embed.js is JavaScript with caching headers, an ETag and CORS *", async () => {
  const res = await service.fetch("/embed.js", { headers: { origin: "https://shop.example" } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.equal(res.headers.get("cache-control"), "public, max-age=300");
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  const etag = res.headers.get("etag");
  assert.match(etag ?? "", /^"[0-9a-f]{32}"$/);
  const script = await res.text();
  assert.match(script, /attachShadow/);
  assert.match(script, /Idempotency-Key/);
  assert.doesNotMatch(script, /innerHTML|insertAdjacentHTML|document\.write/, "no HTML sinks");
  assert.doesNotMatch(script, /\bimport\b|require\(/, "dependency-free");
  const again = await service.fetch("/embed.js", { headers: { "if-none-match": etag! } });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get("etag"), etag);
  assert.equal(await again.text(), "");
});

test("embed: /try/{slug} embeds the script under a strict Content-Security-Policy", async () => {
  const res = await service.fetch("/try/spring-survey");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
  const html = await res.text();
  assert.match(html, /<script src="\/embed\.js" data-form="spring-survey"><\/script>/);
  const bad = await service.fetch("/try/%3Cscript%3E");
  assert.equal(bad.status, 404);
  await bad.body?.cancel();
});

test("embed: close", async () => {
  await service.close();
});
