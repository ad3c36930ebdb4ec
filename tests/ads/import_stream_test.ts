// `admin import` streams (contract.md §4: millions of lines in bounded memory) and, on
// PostgreSQL, loads through COPY: the real command in its own process, with a JavaScript heap
// capped far below the size of the file it imports.

import assert from "node:assert/strict";
import postgres from "postgres";
import { BASE, DAY } from "./_fixture.ts";
import { freshDatabase, test } from "../_server.ts";

const OCCURRENCES = 440_000;
/** Old-space limit of the importing process, in MB: a third of the file. */
const HEAP_MB = 32;

/** Writes the NDJSON file a line at a time; returns its size in bytes. */
async function writeFile(path: string): Promise<number> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  let size = 0;
  let batch: string[] = [];
  const flush = async () => {
    const bytes = encoder.encode(batch.join(""));
    size += bytes.length;
    for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
    batch = [];
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  const line = (record: unknown) => batch.push(JSON.stringify(record) + "\n");
  line({ type: "snapshot", id: "stream-1", exported_at: iso(BASE + 40 * DAY) });
  line({ type: "station", id: "st-1", name: "Radio One" });
  for (const id of ["br-1", "br-2"]) line({ type: "brand", id, name: `Brand ${id}` });
  for (let i = 0; i < OCCURRENCES; i++) {
    const start = BASE + i * 5000;
    line({
      type: "occurrence",
      id: `6f1c1a52-2a51-4f43-9d43-${i.toString(16).padStart(12, "0")}`,
      station_id: "st-1",
      ad_started_at: iso(start),
      ad_ended_at: iso(start + 30_000),
      duration_precision: "detected",
      review_state: "confirmed",
      brand_ids: i % 20 ? ["br-1"] : ["br-1", "br-2"],
    });
    if (batch.length === 4096) await flush();
  }
  await flush();
  file.close();
  return size;
}

test("admin: import streams a file three times its heap limit, through COPY on PostgreSQL", async () => {
  const database = await freshDatabase();
  const dir = await Deno.makeTempDir();
  const path = `${dir}/big.ndjson`;
  const watcher = database.url ? postgres(database.url, { max: 1, onnotice: () => {} }) : null;
  try {
    const size = await writeFile(path);
    assert.ok(size > 3 * HEAP_MB * 1024 * 1024, `the file is ${size} bytes`);
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        `--v8-flags=--max-old-space-size=${HEAP_MB}`,
        "--allow-net",
        "--allow-env",
        "--allow-read",
        `--allow-write=${dir}`,
        new URL("../../admin.ts", import.meta.url).pathname,
        "import",
        path,
      ],
      env: { DATA_DIR: `${dir}/data`, ...(database.url ? { DATABASE_URL: database.url } : {}) },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // Resident memory too, which buffers outside the JavaScript heap would show.
    let peakRss = 0;
    let done = false;
    const sampling = (async () => {
      while (!done) {
        const status = await Deno.readTextFile(`/proc/${child.pid}/status`).catch(() => "");
        const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
        peakRss = Math.max(peakRss, kb * 1024);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    // PostgreSQL reports each COPY in progress: the occurrences must arrive through one.
    const copies = new Set<string>();
    const watching = (async () => {
      while (watcher && !done) {
        const rows = await watcher<{ relation: string; command: string; type: string }[]>`
          select relid::regclass::text as relation, command, type
            from pg_stat_progress_copy where datname = current_database()`;
        for (const r of rows) copies.add(`${r.command} ${r.type} ${r.relation}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const output = await child.output();
    done = true;
    await watching;
    await sampling;
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr.slice(-2000));
    assert.match(stderr, /import: [\d,]+ rows, [\d,]+ rows\/s/, "a progress line on stderr");
    const stdout = new TextDecoder().decode(output.stdout);
    assert.match(stdout, new RegExp(`snapshot stream-1 imported: ${OCCURRENCES} occurrences`));
    // The bound for the import, on PostgreSQL: 95-157 MB measured here, levelling off
    // with the file's size (the allocator's warm-up). With PGlite the process also holds the
    // database (360-420 MB measured), so only the heap limit above applies there.
    const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
    if (database.url) assert.ok(peakRss <= 300 * 1048576, `peak RSS ${mb(peakRss)}`);
    console.log(`import of ${mb(size)}: peak RSS ${mb(peakRss)}`);
    if (watcher) {
      assert.ok(copies.has("COPY FROM PIPE ads_occurrences"), [...copies].join("; "));
      const [row] = await watcher<{ n: number }[]>`
        select count(*)::int as n from ads_occurrences`;
      assert.equal(row.n, OCCURRENCES);
    }
  } finally {
    await watcher?.end();
    await database.drop();
    await Deno.remove(dir, { recursive: true });
  }
});
