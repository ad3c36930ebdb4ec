// The browser tests without Chromium: skipped with one line saying how to install it, so that
// `deno task test` passes on a machine with only Node.js/npm; failed where ONDA_REQUIRE_BROWSER=1
// (CI), so that CI never passes without having run them.

import assert from "node:assert/strict";
import { test } from "../_server.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

async function browserTests(requireBrowser: string) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-all", "tests/embed/browser_test.ts"],
    cwd: ROOT,
    env: {
      ONDA_CHROMIUM: "/nonexistent/chromium",
      ONDA_REQUIRE_BROWSER: requireBrowser,
      NO_COLOR: "1",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  return { code: output.code, text };
}

test("browser: without Chromium the browser tests are skipped, saying how to install it", async () => {
  const { code, text } = await browserTests("0");
  assert.equal(code, 0, text);
  const notes = text.split("\n").filter((line) => line.startsWith("browser tests skipped:"));
  assert.equal(notes.length, 1, text);
  assert.match(
    notes[0],
    /\/nonexistent\/chromium is missing; install it with `apt-get install -y chromium`/,
  );
  assert.match(text, /\| 0 failed \| 4 ignored/);
});

test("browser: with ONDA_REQUIRE_BROWSER=1 (CI) a missing Chromium fails them", async () => {
  const { code, text } = await browserTests("1");
  assert.notEqual(code, 0);
  assert.match(text, /\/nonexistent\/chromium is missing/);
  assert.match(text, /\| 4 failed/);
});
