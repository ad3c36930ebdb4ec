// Reconnecting after a cut. postgres.js schedules a reconnect at the end of its backoff,
// measured from when the connection closed (closedDate + delay - now, src/connection.js
// reconnect()); asked for a connection after that moment, as in any cut that outlasts the
// backoff, it passes setTimeout a negative delay. Node's timers, which Deno provides to npm
// packages, then wait one millisecond and print "TimeoutNegativeWarning: -N is a negative number" once
// per process: the reconnect starts at once, which is what a backoff already spent means. No
// option of postgres() changes that computation (a longer backoff only delays every
// reconnect), so the warning is left to print and this test pins down that it is harmless:
// the next query after the cut is answered at once, and nothing else is printed.

import assert from "node:assert/strict";
import { PG_FALLBACK_URL, test } from "../_server.ts";

test("db: after a cut that outlasts the backoff, the next query reconnects at once", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      new URL("./_reconnect_child.ts", import.meta.url).pathname,
      PG_FALLBACK_URL,
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  const result = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(result.failed, true, "the query during the cut failed");
  assert.ok(result.ms < 1000, `the reconnect took ${Math.round(result.ms)} ms`);
  // The library's warning, if this version still prints it, and nothing else.
  const unexpected = stderr.split("\n").filter((line) =>
    line.trim() !== "" &&
    !/^\(node:\d+\) TimeoutNegativeWarning: -[\d.]+ is a negative number\.$/.test(line) &&
    line !== "Timeout duration was set to 1."
  );
  assert.deepEqual(unexpected, []);
});
