// `deno task bench ads_start --database NAME [--root DIR] [--cache-mb N] [--requests N] [--days D]
// [--only ads|summary|coverage]`: an instance of the build in DIR (default this one) started on a
// bench database that `bench ads` filled: the time from spawning main.ts to its first 200 on
// /api/v1/ads, then its RSS after N requests (default 300) of /ads, summary and coverage in turn
// (or only one of them) over random 31-day windows of the last D days (default 730), its peak RSS,
// and where the RSS is. Runs any build, so that builds compare on the same data.

import { machineLine } from "./machine.ts";
import postgres from "postgres";

function option(args: string[], name: string, fallback: string): string {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/**
 * Resident MB of the process's brk heap (glibc's main arena: the cache's arrays, the driver's
 * buffers) and of its anonymous mappings under 1 MB (V8's heap pages).
 */
function residentParts(pid: number) {
  const parts = { heap: 0, v8: 0 };
  let into: keyof typeof parts | null = null;
  for (const line of Deno.readTextFileSync(`/proc/${pid}/smaps`).split("\n")) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(\S*)/.exec(line);
    if (mapping) {
      const size = parseInt(mapping[2], 16) - parseInt(mapping[1], 16);
      into = mapping[3] === "[heap]" ? "heap" : mapping[3] === "" && size < 1 << 20 ? "v8" : null;
    } else if (into && line.startsWith("Rss:")) {
      parts[into] += Number(/(\d+)/.exec(line)![1]) / 1024;
    }
  }
  return parts;
}

export async function run(args: string[]) {
  const root = option(args, "root", new URL("..", import.meta.url).pathname);
  const database = option(args, "database", "onda_bench_ads_blocks");
  const cacheMb = option(args, "cache-mb", "");
  const requests = Number(option(args, "requests", "300"));
  const days = Number(option(args, "days", "730"));
  const only = option(args, "only", "");
  const base = Deno.env.get("DATABASE_URL") || "postgres://postgres@127.0.0.1:5432/test";
  const url = new URL(base);
  url.pathname = `/${database}`;
  const env: Record<string, string> = {
    DATABASE_URL: url.href,
    RATE_LIMIT_KEY_PER_MINUTE: "100000000",
    WEBHOOK_WORKER: "0",
    ...(cacheMb ? { ADS_CACHE_MB: cacheMb } : {}),
  };
  const admin = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "admin.ts",
      "key",
      "create",
      "bench50",
      "--permissions",
      "ads:read,reports:read,coverage:read",
    ],
    cwd: root,
    env,
    stdout: "piped",
    stderr: "null",
  }).output();
  const key = new TextDecoder().decode(admin.stdout).trim().split("\n").at(-1)!;
  const port = freePort();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: root,
    env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const headers = { authorization: `Bearer ${key}` };
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
    await res.body?.cancel();
    return res.status;
  };
  try {
    let firstMs = NaN;
    while (performance.now() - started < 120_000) {
      const status = await get("/api/v1/ads").catch(() => 0);
      if (status === 200) {
        firstMs = performance.now() - started;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const atStart = memoryMb(child.pid);
    const end = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const endpoints = {
      ads: "/api/v1/ads",
      summary: "/api/v1/reports/summary",
      coverage: "/api/v1/coverage",
    };
    if (only && !(only in endpoints)) throw new Error("--only takes ads, summary or coverage");
    const paths = only ? [endpoints[only as keyof typeof endpoints]] : Object.values(endpoints);
    const t0 = performance.now();
    for (let i = 0; i < requests; i++) {
      const since = end - (31 + Math.floor(random() * (days - 31))) * 86_400_000;
      const window = `since=${new Date(since).toISOString()}&until=${
        new Date(since + 31 * 86_400_000).toISOString()
      }`;
      const status = await get(`${paths[i % paths.length]}?${window}`);
      if (status !== 200) throw new Error(`${paths[i % paths.length]}: ${status}`);
    }
    const seconds = (performance.now() - t0) / 1000;
    const after = memoryMb(child.pid);
    const parts = residentParts(child.pid);
    const sql = postgres(url.href, { max: 1, onnotice: () => {} });
    console.log(
      `${root} on ${database}${cacheMb ? `, ADS_CACHE_MB=${cacheMb}` : ""}` +
        `${only ? `, ${only} only` : ""}: first /ads 200 ` +
        `${(firstMs / 1000).toFixed(2)} s after spawn, RSS ${atStart.rss.toFixed(0)} MB then; ` +
        `after ${requests} cold requests (${(requests / seconds).toFixed(0)}/s, one client) ` +
        `RSS ${after.rss.toFixed(0)} MB, peak ${after.peak.toFixed(0)} MB; of it brk heap ` +
        `${parts.heap.toFixed(0)} MB, anonymous mappings under 1 MB ${parts.v8.toFixed(0)} MB`,
    );
    console.log(await machineLine(sql));
    await sql.end();
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}
