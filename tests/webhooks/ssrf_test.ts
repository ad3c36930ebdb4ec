// SSRF: webhook targets on loopback, private, CGNAT, link-local, unique-local or multicast
// addresses (IPv4, IPv6, IPv4-mapped), and names resolving to them, are refused when the
// webhook is created and again when a delivery is attempted, unless
// WEBHOOK_ALLOW_PRIVATE_TARGETS=1.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import { registerUser } from "../forms/_forms.ts";
import { startReceiver } from "./_webhooks.ts";
import {
  checkTarget,
  isPublicAddress,
  postPinned,
  type Resolver,
} from "../../lib/webhooks/ssrf.ts";
import { createWebhookWorker } from "../../lib/webhooks/worker.ts";

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

test("ssrf: the worker sends a checked name's delivery to the address that passed the check", async () => {
  // Public addresses are unreachable here: the pinned sender is observed instead, and the
  // ordinary fetch (which would resolve the name again) must not be used.
  const seen: { url: string; address: string }[] = [];
  const app = {
    ...service.app,
    fetch: (() => Promise.reject(new Error("fetch must not be used"))) as typeof fetch,
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
    sendPinned: (url, address) => {
      seen.push({ url: url.href, address });
      return Promise.resolve(new Response(null, { status: 204 }));
    },
  })(app, stop.signal);
  try {
    const deadline = performance.now() + 5000;
    let status = "";
    while (status !== "succeeded" && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      const rows = await service.db.sql<{ status: string }>`
        select status from webhook_deliveries where workspace_id = ${user.workspaceId}`;
      status = rows[0]?.status ?? "";
    }
    assert.equal(status, "succeeded");
    assert.deepEqual(seen, [{ url: "https://hooks.example/in", address: "93.184.216.34" }]);
  } finally {
    stop.abort();
    await worker;
  }
});

test("ssrf: postPinned connects to the given address and verifies the certificate for the URL's name", async () => {
  let seen: { host: string | null; path: string; body: string; test: string | null } | null = null;
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", cert: TEST_LEAF, key: TEST_LEAF_KEY, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      seen = {
        host: req.headers.get("host"),
        path: url.pathname + url.search,
        body: await req.text(),
        test: req.headers.get("x-test"),
      };
      return new Response("busy", { status: 429, headers: { "retry-after": "7" } });
    },
  );
  const port = server.addr.port;
  const send = (name: string, signal = AbortSignal.timeout(5000)) =>
    postPinned(new URL(`https://${name}:${port}/in?x=1`), "127.0.0.1", {
      headers: new Headers({ "content-type": "application/json", "x-test": "yes" }),
      body: '{"a":1}',
      signal,
      caCerts: [TEST_CA],
    });
  try {
    // "pinned.test" does not resolve anywhere: only the given address can have been used.
    const res = await send("pinned.test");
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "7");
    assert.deepEqual(seen, {
      host: `pinned.test:${port}`,
      path: "/in?x=1",
      body: '{"a":1}',
      test: "yes",
    });
    // The certificate must be valid for the URL's name, not merely for someone.
    await assert.rejects(send("other.test"), /certificate/);
  } finally {
    await server.shutdown();
  }
  // A peer that accepts and never answers: the attempt's signal ends it.
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  try {
    const url = new URL(`https://pinned.test:${(silent.addr as Deno.NetAddr).port}/`);
    await assert.rejects(
      postPinned(url, "127.0.0.1", {
        headers: new Headers(),
        body: "{}",
        signal: AbortSignal.timeout(200),
        caCerts: [TEST_CA],
      }),
      (err: unknown) => err instanceof DOMException && err.name === "TimeoutError",
    );
  } finally {
    silent.close();
    for (const conn of held) conn.close();
  }
});

test("ssrf: close", async () => {
  await service.close();
});

// A throwaway certificate authority and a leaf for "pinned.test" (valid until 2126), made for
// this test with openssl; the key protects nothing.
const TEST_CA = `-----BEGIN CERTIFICATE-----
MIIBhDCCASugAwIBAgIUXflt+NKPOH+ZYjwkoIc1WrARPs8wCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMT25kYSB0ZXN0IENBMCAXDTI2MTEyMjE0MzkwN1oYDzIxMjYx
MDI5MTQzOTA3WjAXMRUwEwYDVQQDDAxPbmRhIHRlc3QgQ0EwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAASwqpKGbm+XqAaIU/+vpBaPeOq3o8JrarwhNH8KDun5InpM
D6hIU4hMLOyIh0tIEYYmDikx/yJDiDJSPLY+FxPzo1MwUTAdBgNVHQ4EFgQUu8Si
6H66Wm8jwi5fLgxwQid/cgkwHwYDVR0jBBgwFoAUu8Si6H66Wm8jwi5fLgxwQid/
cgkwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiBb10t54I9UYPBK
+Ys5xvL5MvXZTFCS3zdxX7UvCLx2mQIgBR+HXMC4QP0ZpG6EjcXc4U6VT4/f+SMr
latjShQfU44=
-----END CERTIFICATE-----
`;
const TEST_LEAF = `-----BEGIN CERTIFICATE-----
MIIBuTCCAWCgAwIBAgIUdFRlydMSB7falIiCp4+yVQlXH2AwCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMT25kYSB0ZXN0IENBMCAXDTI2MTEyMjE0MzkwN1oYDzIxMjYx
MDI5MTQzOTA3WjAWMRQwEgYDVQQDDAtwaW5uZWQudGVzdDBZMBMGByqGSM49AgEG
CCqGSM49AwEHA0IABAjvMNOIxxXrdSb7oGyAcIoyB8L5MVKabzX10vT5zJxa5NWK
M0G5zgCSC2wYRA+VxlqLn4PtPuYXkayVWhihM1CjgYgwgYUwFgYDVR0RBA8wDYIL
cGlubmVkLnRlc3QwCQYDVR0TBAIwADALBgNVHQ8EBAMCB4AwEwYDVR0lBAwwCgYI
KwYBBQUHAwEwHQYDVR0OBBYEFIG37gI856o9mowERfM8+kZlnUJnMB8GA1UdIwQY
MBaAFLvEouh+ulpvI8IuXy4McEInf3IJMAoGCCqGSM49BAMCA0cAMEQCIAMKeCx0
Fcc4w96LaTEVvmhtL5KXMEkKo3JMZKcSSQM5AiAdOQBarPP9BtCEkT4vya0mjauQ
dH17ic9iZVDt9NrFnA==
-----END CERTIFICATE-----
`;
const TEST_LEAF_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgVFGr02bIWLqEVAY0
UdljH8J42RttlNwGKtcsULBcZYKhRANCAAQI7zDTiMcV63Um+6BsgHCKMgfC+TFS
mm819dL0+cycWuTVijNBuc4AkgtsGEQPlcZai5+D7T7mF5GslVoYoTNQ
-----END PRIVATE KEY-----
`;
