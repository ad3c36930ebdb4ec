// A small TCP proxy for tests: sits between the service and PostgreSQL so a test can delay
// traffic, hold it (the database stops answering but its connections stay open), cut the
// connection (the database "goes away") and restore it.

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
