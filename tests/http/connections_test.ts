// Connections are bounded (issue 30, item 2). Deno's server has no header, body or idle timeout,
// so the deployment carries them: the proxy config Onda ships, lib/http/nginx.conf, runs here as
// it is (only its addresses and certificate replaced) in front of the service, over TLS. A flood
// of connections that send nothing, half a head one byte a second, half a body, or nothing after
// their first request is closed within the config's timeouts, while other clients are answered
// within 1 s, and Onda never sees a slow body.

import assert from "node:assert/strict";
import { startTestService } from "../_server.ts";
import { NGINX, nginxMain, startNginx } from "../_balancer.ts";
import { connectRaw, cutPost, type RawOutcome, readUntilClosed, send } from "../_raw_http.ts";
import { registerUser } from "../forms/_forms.ts";

const SHIPPED = await Deno.readTextFile(new URL("../../lib/http/nginx.conf", import.meta.url));

function seconds(directive: string): number {
  const match = new RegExp(`^${directive} (\\d+)s;`, "m").exec(SHIPPED);
  assert.ok(match, `lib/http/nginx.conf sets no ${directive}`);
  return Number(match[1]);
}

/** `text` with `from` replaced, which the shipped file must still contain. */
function replaced(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `lib/http/nginx.conf no longer contains "${from}"`);
  return text.replace(from, to);
}

/** A test CA and a certificate for localhost it signed: returns the CA's PEM to trust. */
async function testCertificate(dir: string): Promise<string> {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await Deno.writeTextFile(`${dir}/leaf.ext`, "subjectAltName=DNS:localhost\n");
  const steps = [
    ["req", "-x509", ...ec, "-days", "1", "-subj", "/CN=Onda test CA", "-keyout", "ca.key"]
      .concat(["-out", "ca.pem"]),
    ["req", ...ec, "-subj", "/CN=localhost", "-keyout", "key.pem", "-out", "leaf.csr"],
    ["x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial"]
      .concat(["-days", "1", "-extfile", "leaf.ext", "-out", "cert.pem"]),
  ];
  for (const args of steps) {
    const made = await new Deno.Command("openssl", { args, cwd: dir, stderr: "piped" }).output();
    assert.ok(made.success, new TextDecoder().decode(made.stderr));
  }
  return await Deno.readTextFile(`${dir}/ca.pem`);
}

const HEADER_S = seconds("client_header_timeout");
const BODY_S = seconds("client_body_timeout");
const IDLE_S = seconds("keepalive_timeout");
const SLACK_MS = 5000;

Deno.test({
  sanitizeOps: false,
  sanitizeResources: false,
  name:
    "connections: half-sent heads, stalled bodies and idle connections are closed within the shipped proxy's timeouts, others answered within 1 s",
  ignore: !NGINX,
  fn: async () => {
    const certDir = await Deno.makeTempDir({ prefix: "onda_tls_" });
    const service = await startTestService({
      env: { TRUST_PROXY: "1", RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" },
    });
    const held: Deno.Conn[] = [];
    let client: Deno.HttpClient | null = null;
    let proxy: Awaited<ReturnType<typeof startNginx>> | null = null;
    try {
      const caCert = await testCertificate(certDir);
      const ondaPort = new URL(service.url).port;
      proxy = await startNginx((dir, port) => {
        let site = SHIPPED;
        site = replaced(site, "server 127.0.0.1:8080;", `server 127.0.0.1:${ondaPort};`);
        site = replaced(site, "listen 443 ssl;", `listen 127.0.0.1:${port} ssl;`);
        site = replaced(site, "/etc/ssl/onda/fullchain.pem", `${certDir}/cert.pem`);
        site = replaced(site, "/etc/ssl/onda/privkey.pem", `${certDir}/key.pem`);
        return nginxMain(dir, site);
      });
      const target = { hostname: "localhost", port: proxy.port, caCert };
      const base = `https://localhost:${proxy.port}`;
      client = Deno.createHttpClient({ caCerts: [caCert] });
      const owner = await registerUser({
        ...service,
        fetch: (path, init) => fetch(base + path, { ...init, client: client! }),
      });

      const open = async (first: string | null) => {
        const conn = await connectRaw(first === null ? { ...target, caCert: undefined } : target);
        held.push(conn);
        if (first !== null) await send(conn, first);
        return conn;
      };
      const flood: { kind: string; limitMs: number; outcome: Promise<RawOutcome> }[] = [];
      const watch = (kind: string, conn: Deno.Conn, limitS: number) =>
        flood.push({
          kind,
          limitMs: limitS * 1000 + SLACK_MS,
          outcome: readUntilClosed(conn, limitS * 1000 + SLACK_MS),
        });
      // Accepted, then nothing at all (not even the TLS handshake).
      for (let i = 0; i < 100; i++) watch("silent", await open(null), HEADER_S);
      // One request answered, then idle on the kept-alive connection.
      for (let i = 0; i < 100; i++) {
        const conn = await open("GET /status HTTP/1.1\r\nHost: localhost\r\n\r\n");
        const first = await readUntilClosed(conn, 5000, true);
        assert.match(first.text, /^HTTP\/1\.1 200 /);
        watch("idle", conn, IDLE_S);
      }
      // Half a head, then one byte a second.
      const slowHeads: Deno.Conn[] = [];
      for (let i = 0; i < 100; i++) {
        const conn = await open("GET /status HTTP/1.1\r\nHost: local");
        slowHeads.push(conn);
        watch("slow head", conn, HEADER_S);
      }
      const drip = setInterval(() => {
        for (const conn of slowHeads) conn.write(new Uint8Array([120])).catch(() => {});
      }, 1000);
      // A whole head and part of a body, then nothing.
      for (let i = 0; i < 50; i++) {
        watch("stalled body", await open(cutPost("/api/v1/auth/register", 200, 20)), BODY_S);
      }

      try {
        const started = performance.now();
        const slowest: number[] = [];
        // Other clients, until every flood connection had its time.
        while (performance.now() - started < Math.max(HEADER_S, BODY_S, IDLE_S) * 1000) {
          const sent = performance.now();
          const res: Response = await fetch(`${base}/api/v1/questionnaires`, {
            client,
            headers: { cookie: owner.cookie, "x-workspace-id": owner.workspaceId },
            signal: AbortSignal.timeout(5000),
          });
          assert.equal(res.status, 200, await res.text());
          slowest.push(performance.now() - sent);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        const worst = Math.max(...slowest);
        assert.ok(worst < 1000, `another client waited ${Math.round(worst)} ms`);
      } finally {
        clearInterval(drip);
      }
      for (const { kind, limitMs, outcome } of flood) {
        const { closed } = await outcome;
        assert.ok(closed, `a ${kind} connection was still open after ${limitMs} ms`);
      }
      // nginx answered the stalled bodies itself: Onda never waited for one.
      assert.ok(!service.logs.some((line) => line.status === 408), "a slow body reached Onda");
      assert.ok(!service.logs.some((line) => Number(line.status) >= 500), "Onda answered a 5xx");
    } finally {
      for (const conn of held) {
        try {
          conn.close();
        } catch {
          // closed already
        }
      }
      client?.close();
      await proxy?.stop();
      await service.close();
      await Deno.remove(certDir, { recursive: true }).catch(() => {});
    }
  },
});
