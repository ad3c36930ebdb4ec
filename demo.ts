// `deno task demo`: loads the demo data set into the configured database (embedded by
// default) and prints a working ads API key, the forms login and a page to try the embed.
// Run it before `deno task start`, not during: the embedded database is one process's.

import { configOrExit } from "./lib/config.ts";
import { DEMO_ACCOUNT, DEMO_EMAIL, DEMO_PASSWORD, DEMO_SLUG, loadDemo } from "./lib/demo.ts";
import { openDatabase } from "./lib/server.ts";

const config = configOrExit();

let db;
try {
  db = await openDatabase(config);
} catch (err) {
  console.error(
    `startup error: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`,
  );
  Deno.exit(1);
}
try {
  const demo = await loadDemo(db, config, (line) => console.error(line));
  const base = config.publicBaseUrl;
  const where = config.databaseUrl
    ? "PostgreSQL (DATABASE_URL)"
    : `the embedded database in ${config.dataDir}`;
  console.log(`Demo data ${demo.fresh ? "loaded into" : "already present in"} ${where}.`);
  console.log(`Start the service:  deno task start`);
  console.log(`Forms login:        ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  console.log(`Try the embed:      ${base}/try/${DEMO_SLUG}`);
  console.log(`Ads API account:    ${DEMO_ACCOUNT} (a new key is made on every run)`);
  console.log(
    `Example:            curl -H "Authorization: Bearer $ONDA_KEY" ${base}/api/v1/whoami`,
  );
  console.log(
    "The ads API key (shown once; the last line, for ONDA_KEY=$(deno task demo | tail -n 1)):",
  );
  console.log(demo.key);
} catch (err) {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  Deno.exit(1);
}
