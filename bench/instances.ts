// Several service processes (main.ts) behind Debian's nginx, for the benches' --instances: the
// same load through the balancer with one instance, with N, and with N counting the rate limits
// each in its own memory (RATE_LIMIT_SCOPE=instance), in turns, so that the machine's drift
// falls on every configuration alike.

import { startBalancer } from "../tests/_balancer.ts";
import { freePort } from "../tests/_pg_cluster.ts";

export interface Deployment {
  /** The balancer's port, on 127.0.0.1. */
  port: number;
  /** The instances' pids (CPU accounting). */
  pids: number[];
  stop(): Promise<void>;
}

/**
 * Starts `instances` services with `env` and a balancer before them; resolves once every
 * instance answers `ready` (a path) with 200. `keepForwardedFor`: see tests/_balancer.ts.
 */
export async function startDeployment(
  instances: number,
  env: Record<string, string>,
  ready: { path: string; headers?: Record<string, string> },
  keepForwardedFor = false,
): Promise<Deployment> {
  const ports = Array.from({ length: instances }, freePort);
  const children = ports.map((port) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", new URL("../main.ts", import.meta.url).pathname],
      env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
      stdout: "null",
      stderr: "inherit",
    }).spawn()
  );
  const stopChildren = async () => {
    for (const child of children) {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
    }
    await Promise.all(children.map((child) => child.status));
  };
  try {
    for (const port of ports) {
      let last = "";
      for (let i = 0;; i++) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}${ready.path}`, {
            headers: ready.headers,
          });
          last = `${res.status} ${(await res.text()).slice(0, 200)}`;
          if (res.ok) break;
        } catch (err) {
          last = String(err); // not listening yet
        }
        if (i === 1200) throw new Error(`instance on ${port} not ready: ${last}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const balancer = await startBalancer(ports.map((p) => `127.0.0.1:${p}`), keepForwardedFor);
    return {
      port: balancer.port,
      pids: children.map((child) => child.pid),
      async stop() {
        await balancer.stop();
        await stopChildren();
      },
    };
  } catch (err) {
    await stopChildren();
    throw err;
  }
}

/** The configurations compared, in the order they run in each round. */
export function deploymentPlan(instances: number) {
  return [
    { label: "1 instance, shared limits", instances: 1, scope: "deployment" },
    { label: `${instances} instances, shared limits`, instances, scope: "deployment" },
    { label: `${instances} instances, RATE_LIMIT_SCOPE=instance`, instances, scope: "instance" },
  ];
}

export interface Measured {
  label: string;
  rate: number;
  p50: number;
  p99: number;
}

/** One markdown table of every round's figures, each configuration's rounds side by side. */
export function planTable(unit: string, results: Measured[]): string {
  const labels = [...new Set(results.map((r) => r.label))];
  const lines = [`| configuration | ${unit} | p50 ms | p99 ms |`, "|---|---|---|---|"];
  for (const label of labels) {
    const runs = results.filter((r) => r.label === label);
    const join = (f: (r: Measured) => string) => runs.map(f).join(" / ");
    lines.push(
      `| ${label} | ${join((r) => r.rate.toFixed(0))} | ${join((r) => r.p50.toFixed(1))} | ${
        join((r) => r.p99.toFixed(1))
      } |`,
    );
  }
  return lines.join("\n");
}
