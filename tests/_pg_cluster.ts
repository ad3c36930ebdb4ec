// PostgreSQL servers of a test's own: a primary and its streaming standby (initdb, then
// pg_basebackup -R) in temporary directories, on free loopback ports, run as the postgres user
// when the test runs as root. Stopped and removed by stop(), or, should the test process end
// first, by an unload handler. The machine's own cluster is never touched.

const BIN = "/usr/lib/postgresql/15/bin";

/** True when this machine has the PostgreSQL 15 server binaries the cluster needs. */
export const PG_SERVER_BINARIES = ["initdb", "pg_ctl", "pg_basebackup", "postgres"].every(
  (name) => {
    try {
      return Deno.statSync(`${BIN}/${name}`).isFile;
    } catch {
      return false;
    }
  },
);

export interface PgServer {
  port: number;
  dir: string;
  /** postgres://postgres@127.0.0.1:port/<database> */
  url(database: string): string;
  /** Fast shutdown (connections closed); the data directory stays until the cluster stops. */
  stop(): Promise<void>;
}

export interface PgCluster {
  primary: PgServer;
  standby: PgServer;
  /** Stops both servers and removes their directories. */
  stop(): Promise<void>;
}

/** A loopback port free at the time of asking. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** uid and gid of the postgres user, when this process is root (PostgreSQL refuses root). */
function postgresUser(): { uid: number; gid: number } | null {
  if (Deno.uid() !== 0) return null;
  const line = Deno.readTextFileSync("/etc/passwd").split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error("running as root, and there is no postgres user to run PostgreSQL");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

async function run(owner: { uid: number } | null, command: string, args: string[]) {
  const [cmd, argv] = owner
    ? ["runuser", ["-u", "postgres", "--", `${BIN}/${command}`, ...args]]
    : [`${BIN}/${command}`, args];
  const out = await new Deno.Command(cmd, { args: argv, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    throw new Error(`${command} ${args.join(" ")} failed: ${text.trim().slice(-2000)}`);
  }
}

/** The postmaster's pid from its pid file, if it runs. */
function postmasterPid(dir: string): number | null {
  try {
    return Number(Deno.readTextFileSync(`${dir}/postmaster.pid`).split("\n")[0]) || null;
  } catch {
    return null;
  }
}

export async function startPrimaryAndStandby(): Promise<PgCluster> {
  const owner = postgresUser();
  const root = await Deno.makeTempDir({ prefix: "onda_pg_cluster_" });
  if (owner) await Deno.chown(root, owner.uid, owner.gid);
  const dirs: string[] = [];
  const server = (dir: string, port: number): PgServer => ({
    port,
    dir,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      if (postmasterPid(dir) === null) return;
      await run(owner, "pg_ctl", ["stop", "-D", dir, "-m", "fast", "-w", "-t", "30"]);
    },
  });
  const start = async (dir: string, port: number) => {
    dirs.push(dir);
    // Durability is of no use to a throwaway cluster; speed and few resources are.
    const options = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${root}`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c shared_buffers=32MB",
      "-c max_connections=200",
      "-c hot_standby_feedback=on",
    ].join(" ");
    await run(owner, "pg_ctl", [
      "start",
      "-D",
      dir,
      "-l",
      `${dir}.log`,
      "-w",
      "-t",
      "60",
      "-o",
      options,
    ]);
    return server(dir, port);
  };
  // Should the test process end without stop(): the servers are killed, the files removed.
  const unload = () => {
    for (const dir of dirs) {
      const pid = postmasterPid(dir);
      if (pid) {
        try {
          Deno.kill(pid, "SIGQUIT");
        } catch { /* gone */ }
      }
    }
    try {
      Deno.removeSync(root, { recursive: true });
    } catch { /* gone, or still in use */ }
  };
  globalThis.addEventListener("unload", unload);
  const stopAll = async () => {
    globalThis.removeEventListener("unload", unload);
    for (const dir of dirs.toReversed()) await server(dir, 0).stop().catch(() => {});
    await Deno.remove(root, { recursive: true }).catch(() => {});
  };
  try {
    const primaryDir = `${root}/primary`;
    await run(owner, "initdb", [
      "-D",
      primaryDir,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    const primary = await start(primaryDir, freePort());
    const standbyDir = `${root}/standby`;
    // -R writes standby.signal and the primary's address: the copy starts as its standby.
    await run(owner, "pg_basebackup", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primary.port),
      "-U",
      "postgres",
      "-D",
      standbyDir,
      "-R",
      "-X",
      "stream",
      "-c",
      "fast",
      "--no-sync",
    ]);
    const standby = await start(standbyDir, freePort());
    return { primary, standby, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
