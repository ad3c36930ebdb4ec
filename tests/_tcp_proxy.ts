// A small TCP proxy for tests: sits between the service and PostgreSQL so a test can delay
// traffic, hold it (the database stops answering but its connections stay open), cut the
// connection (the database "goes away") and restore it.

import { loadConfig } from "../lib/config.ts";
import { openDb } from "../lib/db/db.ts";
import { startService } from "../lib/server.ts";
import { freshDatabase, PG_FALLBACK_URL, testClock, type TestService } from "./_server.ts";

export interface TcpProxy {
  port: number;
  /** Milliseconds added before forwarding each chunk from the database. */
  delayMs: number;
  /** While true, nothing from the database is forwarded; it is held, not lost. */
  stalled: boolean;
  /** Closes every connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  close(): void;
}

export function startTcpProxy(targetHost: string, targetPort: number): TcpProxy {
  let listener: Deno.Listener | null = null;
  const open = new Set<Deno.Conn>();
  let port = 0;

  const pipe = async (from: Deno.Conn, to: Deno.Conn, delayed: boolean) => {
    const buffer = new Uint8Array(64 * 1024);
    try {
      while (true) {
        const n = await from.read(buffer);
        if (n === null) break;
        if (delayed && proxy.delayMs > 0) await new Promise((r) => setTimeout(r, proxy.delayMs));
        while (delayed && proxy.stalled) await new Promise((r) => setTimeout(r, 10));
        let written = 0;
        while (written < n) written += await to.write(buffer.subarray(written, n));
      }
    } catch { /* a side closed */ }
    for (const conn of [from, to]) {
      try {
        conn.close();
      } catch { /* already closed */ }
      open.delete(conn);
    }
  };

  const listen = () => {
    listener = Deno.listen({ hostname: "127.0.0.1", port });
    port = (listener.addr as Deno.NetAddr).port;
    const current = listener;
    (async () => {
      try {
        for await (const client of current) {
          try {
            const server = await Deno.connect({ hostname: targetHost, port: targetPort });
            open.add(client);
            open.add(server);
            pipe(client, server, false);
            pipe(server, client, true);
          } catch {
            client.close();
          }
        }
      } catch { /* listener closed */ }
    })();
  };

  const closeAll = () => {
    try {
      listener?.close();
    } catch { /* closed */ }
    listener = null;
    for (const conn of open) {
      try {
        conn.close();
      } catch { /* closed */ }
    }
    open.clear();
  };

  const proxy: TcpProxy = {
    get port() {
      return port;
    },
    delayMs: 0,
    stalled: false,
    cut: closeAll,
    restore: () => {
      if (!listener) listen();
    },
    close: closeAll,
  };
  listen();
  return proxy;
}

/**
 * The real service on a fresh PostgreSQL database (PGlite has no connection to cut) reached
 * through a proxy, its workers off; `env` adds to the configuration. Always PostgreSQL,
 * whatever the suite's mode.
 */
export async function serviceBehindProxy(env: Record<string, string>, maintenanceCacheMs: number) {
  const database = await freshDatabase(PG_FALLBACK_URL);
  const target = new URL(database.url!);
  const proxy = startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(database.url!);
  viaProxy.hostname = "127.0.0.1";
  viaProxy.port = String(proxy.port);
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: viaProxy.toString(),
    DB_POOL_MAX: "4",
    ...env,
  });
  const db = await openDb({
    databaseUrl: viaProxy.toString(),
    dataDir: "memory://",
    poolMax: config.dbPoolMax,
  });
  const clock = testClock();
  const logs: Record<string, unknown>[] = [];
  const started = await startService({
    config,
    db,
    clock,
    log: (line) => logs.push(line),
    maintenanceCacheMs,
    startWorkers: false,
  });
  // The helpers of the tests only need these parts of a test service.
  const service = {
    ...started,
    db,
    clock,
    logs,
    fetch: (path: string, init?: RequestInit) => fetch(started.url + path, init),
  } as unknown as TestService;
  return {
    service,
    proxy,
    async close() {
      // Held answers let through, so that no request is left waiting for them.
      proxy.stalled = false;
      await started.shutdown();
      proxy.close();
      await database.drop();
    },
  };
}
