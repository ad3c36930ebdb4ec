// SSRF: webhook targets on loopback, private, CGNAT, link-local, unique-local or multicast
// addresses (IPv4, IPv6, IPv4-mapped), and names resolving to them, are refused when the
// webhook is created and again when a delivery is attempted, unless
// WEBHOOK_ALLOW_PRIVATE_TARGETS=1.

import assert from "node:assert/strict";
import { body, startTestService, test } from "./_server.ts";
import { registerUser } from "./_forms.ts";
import { startReceiver } from "./_webhooks.ts";
import { checkTarget, isPublicAddress, type Resolver } from "../lib/ssrf.ts";
import { createWebhookWorker } from "../lib/webhook_worker.ts";

const NOT_PUBLIC = [
  "0.0.0.0",
  "10.1.2.3",
  "100.64.0.1",
  "100.127.255.254",
  "127.0.0.1",
  "127.255.255.255",
  "169.254.169.254",
  "172.16.0.1",
  "172.31.255.255",
  "192.0.0.8",
  "192.0.2.1",
  "192.168.1.1",
  "198.18.0.1",
  "224.0.0.1",
  "239.255.255.250",
  "240.0.0.1",
  "255.255.255.255",
  "::",
  "::1",
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "::ffff:10.0.0.1",
  "::ffff:a9fe:a9fe",
  "::127.0.0.1",
  "64:ff9b::a00:1",
  "fe80::1",
  "febf::1",
  "fc00::1",
  "fd12:3456::1",
  "ff02::1",
  "2001:db8::1",
  "2002:7f00:1::1",
  "100::1",
  "not an address",
];
const PUBLIC = [
  "1.1.1.1",
  "8.8.8.8",
  "93.184.216.34",
  "100.63.255.255",
  "100.128.0.1",
  "172.15.255.255",
  "172.32.0.1",
  "2606:4700:4700::1111",
  "2a00:1450:4001:80b::200e",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::1",
];

test("ssrf: private, loopback, link-local, CGNAT, multicast and mapped addresses are not public", () => {
  for (const address of NOT_PUBLIC) assert.equal(isPublicAddress(address), false, address);
  for (const address of PUBLIC) assert.equal(isPublicAddress(address), true, address);
});

const fakeDns = (table: Record<string, { A?: string[]; AAAA?: string[] }>): Resolver =>
(
  name,
  type,
) => {
  const found = table[name]?.[type];
  return found ? Promise.resolve(found) : Promise.reject(new Deno.errors.NotFound(name));
};

test("ssrf: a name is refused when any of its addresses is not public", async () => {
  const resolve = fakeDns({
    "public.example": { A: ["93.184.216.34"], AAAA: ["2606:2800:220:1::1"] },
    "inside.example": { A: ["10.0.0.7"] },
    "mixed.example": { A: ["93.184.216.34", "192.168.0.2"] },
    "v6local.example": { A: ["93.184.216.34"], AAAA: ["fd00::1"] },
    "mapped.example": { AAAA: ["::ffff:127.0.0.1"] },
  });
  const check = (url: string, allowPrivate = false) => checkTarget(url, { allowPrivate, resolve });
  const ok = await check("https://public.example/hook");
  assert.ok(ok.ok && ok.address === "93.184.216.34");
  for (const name of ["inside", "mixed", "v6local", "mapped"]) {
    const refused = await check(`https://${name}.example/hook`);
    assert.ok(!refused.ok, name);
    assert.match(refused.reason, /resolves to a private/, name);
  }
  const nowhere = await check("https://nowhere.example/hook");
  assert.ok(!nowhere.ok && /does not resolve/.test(nowhere.reason));
  const plain = await check("http://public.example/hook");
  assert.ok(!plain.ok && /https/.test(plain.reason));
  // The opt-in allows http and private targets (development and tests).
  assert.ok((await check("http://inside.example/hook", true)).ok);
});

const service = await startTestService({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "0" } });

test("ssrf: creation refuses loopback, private and link-local targets and plain http", async () => {
  const user = await registerUser(service);
  const refused = [
    "http://example.com/hook",
    "https://127.0.0.1/hook",
    "https://127.1/hook",
    "https://2130706433/hook",
    "https://0x7f.0.0.1/hook",
    "https://10.1.2.3/hook",
    "https://172.20.0.1/hook",
    "https://192.168.0.10/hook",
    "https://100.64.1.1/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://224.0.0.1/hook",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[fe80::1]/hook",
    "https://[fd00::1]/hook",
    "https://localhost/hook",
    "https://api.localhost/hook",
  ];
  for (const url of refused) {
    const res = await service.fetch("/api/v1/webhooks", {
      method: "POST",
      headers: user.headers(),
      body: JSON.stringify({ url }),
    });
    assert.equal(res.status, 400, url);
    const data = await body<{ error: { code: string; field: string } }>(res);
    assert.equal(data.error.field, "url", url);
  }
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from webhooks where workspace_id = ${user.workspaceId}`;
  assert.equal(row.n, 0);
});

test("ssrf: each delivery attempt re-checks the target and its name's current resolution", async () => {
  const receiver = startReceiver();
  const user = await registerUser(service);
  // Webhooks stored as if created while the targets were acceptable: one to a loopback
  // address (private targets were allowed then), one to a name that now resolves to loopback.
  const port = new URL(receiver.url).port;
  const now = new Date();
  await service.db.sql`
    insert into webhooks (workspace_id, url, events, created_at)
    values (${user.workspaceId}, ${receiver.url}, ${["session.started"]}::text[], ${now}),
           (${user.workspaceId}, ${`http://rebound.example:${port}/hook`},
            ${["session.started"]}::text[], ${now})`;
  await service.db.sql`
    insert into outbox_events (workspace_id, type, data)
    values (${user.workspaceId}, 'session.started', '{"sequence":1}'::jsonb)`;
  const stop = new AbortController();
  const worker = createWebhookWorker({
    resolve: fakeDns({ "rebound.example": { A: ["127.0.0.1"] } }),
  })(service.app, stop.signal);
  try {
    const deadline = performance.now() + 5000;
    let rows: { webhook_id: string; attempts: number; last_error: string | null }[] = [];
    while (performance.now() < deadline) {
      rows = await service.db.sql`
        select webhook_id, attempts, last_error from webhook_deliveries
        where workspace_id = ${user.workspaceId}`;
      if (rows.length === 2 && rows.every((r) => r.attempts >= 1)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(rows.length, 2);
    for (const row of rows) {
      assert.ok(row.attempts >= 1);
      assert.match(row.last_error ?? "", /^Not sent: url/);
    }
    assert.equal(receiver.received.length, 0);
  } finally {
    stop.abort();
    await worker;
    await receiver.close();
  }
});

test("ssrf: a checked name is connected to the address that passed the check", async () => {
  // The injected fetch stands in for the network: the request must carry a client pinned to
  // the checked address (the URL keeps the name for SNI and Host).
  const seen: { url: string; pinned: boolean }[] = [];
  const app = {
    ...service.app,
    fetch: ((input: URL, init: RequestInit & { client?: Deno.HttpClient }) => {
      seen.push({ url: String(input), pinned: init.client !== undefined });
      return Promise.resolve(new Response(null, { status: 204 }));
    }) as typeof fetch,
  };
  const user = await registerUser(service);
  await service.db.sql`
    insert into webhooks (workspace_id, url, events, created_at)
    values (${user.workspaceId}, 'https://hooks.example/in', ${["session.started"]}::text[],
            ${new Date()})`;
  await service.db.sql`
    insert into outbox_events (workspace_id, type, data)
    values (${user.workspaceId}, 'session.started', '{"sequence":1}'::jsonb)`;
  const stop = new AbortController();
  const worker = createWebhookWorker({
    resolve: fakeDns({ "hooks.example": { A: ["93.184.216.34"] } }),
  })(app, stop.signal);
  try {
    const deadline = performance.now() + 5000;
    while (!seen.length && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(seen, [{ url: "https://hooks.example/in", pinned: true }]);
  } finally {
    stop.abort();
    await worker;
  }
});

test("ssrf: close", async () => {
  await service.close();
});
