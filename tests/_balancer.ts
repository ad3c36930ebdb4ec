// A real load balancer in front of several instances: Debian's nginx, started with a
// configuration of its own in a temporary directory on a free loopback port (round robin,
// keep-alive connections to the instances, X-Forwarded-For set to the client's address), and
// stopped at the end. The config Onda ships for deployment is lib/http/nginx.conf.

import { freePort } from "./_pg_cluster.ts";

/** The nginx binary, or null when it is not installed. */
export const NGINX = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
}) ?? null;

export interface Balancer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * The configuration: `upstreams` are host:port of the instances. X-Forwarded-For is the client's
 * address, replacing any it sent (Onda takes the entry its proxy wrote); a bench of many visitors
 * on one loopback address passes on the address each sends instead (`keepForwardedFor`), as the
 * only entry: appended to, every visitor would count as the loopback address.
 */
export function nginxConfig(
  dir: string,
  port: number,
  upstreams: string[],
  keepForwardedFor = false,
): string {
  return nginxMain(
    dir,
    `  upstream onda {
${upstreams.map((u) => `    server ${u};`).join("\n")}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    keepalive_requests 1000000;
    keepalive_timeout 300s;
    location / {
      proxy_pass http://onda;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For ${
      keepForwardedFor ? "$http_x_forwarded_for" : "$remote_addr"
    };
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }`,
  );
}

/** A main context as Debian's nginx.conf has, with room for floods, around `http`'s body. */
export function nginxMain(dir: string, http: string): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
worker_rlimit_nofile 8192;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${http}
}
`;
}

export function startBalancer(upstreams: string[], keepForwardedFor = false): Promise<Balancer> {
  return startNginx((dir, port) => nginxConfig(dir, port, upstreams, keepForwardedFor));
}

/** nginx with the configuration `config` writes for its directory and loopback port. */
export async function startNginx(
  config: (dir: string, port: number) => string | Promise<string>,
): Promise<Balancer> {
  if (!NGINX) throw new Error("nginx is not installed (apt-get install nginx)");
  const dir = await Deno.makeTempDir({ prefix: "onda_nginx_" });
  // Its workers may run as another user (www-data when started as root): the directory is
  // theirs to write buffered bodies in.
  await Deno.chmod(dir, 0o777);
  const port = freePort();
  await Deno.writeTextFile(`${dir}/nginx.conf`, await config(dir, port));
  const child = new Deno.Command(NGINX, {
    args: ["-p", dir, "-c", `${dir}/nginx.conf`, "-e", `${dir}/error.log`],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const unload = () => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  };
  globalThis.addEventListener("unload", unload);
  const stop = async () => {
    globalThis.removeEventListener("unload", unload);
    try {
      child.kill("SIGQUIT");
    } catch { /* gone */ }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 5000);
    await child.output().catch(() => {});
    clearTimeout(timer);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  for (let i = 0;; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch {
      if (i === 100) {
        await stop();
        throw new Error(`nginx did not listen on ${port}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { url: `http://127.0.0.1:${port}`, port, stop };
}
