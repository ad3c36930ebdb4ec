// Logging: one JSON line per request with the fields an operator needs, and never a secret,
// wherever the client put it.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";

const service = await startTestService();

const SECRETS = {
  query: "qs-secret-5f2a9c",
  bearer: "bearer-secret-81be77",
  cookie: "cookie-secret-0d4e19",
  password: "password-secret-c3a0f2",
  header: "header-secret-77aa10",
};

test("logging: one JSON line per request with time, method, route, status, duration, trace id", async () => {
  const before = service.logs.length;
  const res = await service.fetch("/status");
  await res.body?.cancel();
  const lines = service.logs.slice(before);
  assert.equal(lines.length, 1);
  const line = lines[0];
  assert.equal(line.method, "GET");
  assert.equal(line.route, "/status");
  assert.equal(line.status, 200);
  assert.equal(typeof line.duration_ms, "number");
  assert.equal(line.trace_id, res.headers.get("x-trace-id"));
});

test("logging: secrets in the query, Authorization, Cookie, body and headers reach no log line", async () => {
  const before = service.logs.length;
  const targets = ["/status", "/api/v1/whoami", "/api/v1/ads", "/api/v1/auth/login", "/api/nope"];
  for (const path of targets) {
    for (const method of ["GET", "POST"]) {
      const res = await service.fetch(
        `${path}?api_key=${SECRETS.query}&token=${SECRETS.query}&password=${SECRETS.query}`,
        {
          method,
          headers: {
            authorization: `Bearer ${SECRETS.bearer}`,
            cookie: `service_token=${SECRETS.cookie}`,
            "x-api-key": SECRETS.header,
            "content-type": "application/json",
          },
          body: method === "POST"
            ? JSON.stringify({ email: "a@b.co", password: SECRETS.password })
            : undefined,
        },
      );
      await res.body?.cancel();
    }
  }
  const lines = service.logs.slice(before);
  assert.ok(lines.length >= targets.length * 2);
  const printed = lines.map((l) => JSON.stringify(l)).join("\n");
  for (const [where, secret] of Object.entries(SECRETS)) {
    assert.ok(!printed.includes(secret), `the ${where} secret reached a log line`);
  }
});

test("logging: stdout of a real process carries JSON lines without secrets", async () => {
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "main.ts"],
    env: { PORT: "0", HOST: "127.0.0.1", DATA_DIR: dir, DATABASE_URL: "", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let banner = "";
  while (!/listening on (http:\/\/\S+)/.test(banner)) {
    const { value, done } = await stderr.read();
    if (done) break;
    banner += value;
  }
  const url = /listening on (http:\/\/\S+)/.exec(banner)![1];
  const res = await fetch(`${url}/status?api_key=${SECRETS.query}`, {
    headers: {
      authorization: `Bearer ${SECRETS.bearer}`,
      cookie: `service_token=${SECRETS.cookie}`,
    },
  });
  assert.equal(res.status, 400); // /status takes no query parameters
  await res.body?.cancel();
  child.kill("SIGTERM");
  const out = await new Response(child.stdout).text();
  await child.status;
  stderr.releaseLock();
  await child.stderr.cancel().catch(() => {});
  await Deno.remove(dir, { recursive: true });
  const lines = out.trim().split("\n").filter(Boolean);
  assert.ok(lines.length >= 1, "a log line for the request");
  const parsed = lines.map((l) => JSON.parse(l));
  assert.ok(parsed.some((l) => l.route === "/status" && l.status === 400));
  for (const secret of Object.values(SECRETS)) assert.ok(!out.includes(secret));
});

test("logging: close the service", async () => {
  await service.close();
  void body;
});
