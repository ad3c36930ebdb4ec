// `deno task bench startup`: cold start of `deno task start` on the embedded database, from
// spawning the task to the first 200 on /status. Target: <= 3 s. Measured on a brand-new data
// directory (migrations run) and on an existing one (a restart).
//   options: --runs N (default 3)

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Kills the task and whatever it started (deno task runs deno run as a child). */
async function stop(child: Deno.ChildProcess) {
  const children = await childPids(child.pid);
  try {
    child.kill("SIGTERM");
  } catch { /* gone */ }
  for (const pid of children) {
    try {
      Deno.kill(pid, "SIGTERM");
    } catch { /* gone */ }
  }
  await child.status;
}

async function childPids(pid: number): Promise<number[]> {
  try {
    const text = await Deno.readTextFile(`/proc/${pid}/task/${pid}/children`);
    return text.trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function startOnce(dataDir: string): Promise<number> {
  const port = freePort();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "start"],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/status`);
        await res.body?.cancel();
        if (res.status === 200) return (performance.now() - started) / 1000;
      } catch { /* not listening yet */ }
      if (performance.now() - started > 60_000) throw new Error("no 200 within 60 s");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await stop(child);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function run(args: string[]) {
  const runsAt = args.indexOf("--runs");
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
  const fresh: number[] = [];
  const restart: number[] = [];
  for (let i = 0; i < runs; i++) {
    // Inside ./data, the only directory the start task may read and write.
    const dataDir = `./data/bench_startup_${crypto.randomUUID().slice(0, 8)}`;
    try {
      fresh.push(await startOnce(dataDir));
      restart.push(await startOnce(dataDir));
    } finally {
      await Deno.remove(`${ROOT}/${dataDir}`, { recursive: true }).catch(() => {});
    }
  }
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(", ");
  console.log(`startup: deno task start -> first 200 on /status (embedded database)`);
  console.log(`  new data dir (migrations): median ${median(fresh).toFixed(2)} s  [${fmt(fresh)}]`);
  console.log(
    `  existing data dir:         median ${median(restart).toFixed(2)} s  [${fmt(restart)}]`,
  );
  console.log(`  target: <= 3 s`);
}
