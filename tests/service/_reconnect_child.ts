// Run by tests/service/reconnect_test.ts in a process of its own, so that its standard error
// holds what postgres.js prints while it reconnects: opens the database through a TCP proxy,
// cuts it, restores it, waits past the reconnect backoff, and prints how long the next query
// took.

import { openDb } from "../../lib/db/db.ts";
import { startTcpProxy } from "../_tcp_proxy.ts";

const target = new URL(Deno.args[0]);
const proxy = startTcpProxy(target.hostname, Number(target.port || 5432));
const via = new URL(target);
via.hostname = "127.0.0.1";
via.port = String(proxy.port);
const db = await openDb({ databaseUrl: via.toString(), dataDir: "memory://", poolMax: 1 });
await db.sql`select 1`;
proxy.cut();
const failed = await db.sql`select 1`.then(() => false, () => true);
proxy.restore();
// Longer than any backoff the pool waits before reconnecting (lib/db/db.ts: at most 1 s).
await new Promise((r) => setTimeout(r, 1500));
const t0 = performance.now();
await db.sql`select 1`;
console.log(JSON.stringify({ failed, ms: performance.now() - t0 }));
await db.close();
proxy.close();
