// Entry point: read config once, open the database, migrate, start workers, serve;
// on SIGINT/SIGTERM finish in-flight requests and close everything.

import { configOrExit } from "./lib/config.ts";
import { startService } from "./lib/server.ts";

const config = configOrExit();

let service;
try {
  service = await startService({ config });
} catch (err) {
  // One line, no stack: a port in use, an unreachable database, a data directory out of reach.
  const message = (err as { message?: unknown })?.message ?? String(err);
  console.error(`startup error: ${String(message).split("\n")[0]}`);
  Deno.exit(1);
}
const database = config.databaseUrl ? "postgresql" : `embedded (${config.dataDir})`;
console.error(
  `onda listening on http://${service.listening} (public URL ${config.publicBaseUrl}; ` +
    `database: ${database})`,
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.error("onda shutting down");
  await service.shutdown();
  Deno.exit(0);
};
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
