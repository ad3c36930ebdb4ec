// The README and the start task stay in step with the configuration the code reads.

import assert from "node:assert/strict";
import { CONFIG_VARIABLES } from "../../lib/config.ts";
import { test } from "../_server.ts";

const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
const denoJson = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));

test("config: every variable is documented in the README table", () => {
  for (const [name] of CONFIG_VARIABLES) {
    assert.match(readme, new RegExp(`^\\| \`${name}\` +\\|`, "m"), `${name} missing from README`);
  }
});

test("config: the start task may read every variable and is never -A", () => {
  const start: string = denoJson.tasks.start;
  assert.doesNotMatch(start, /(^| )(-A|--allow-all)( |$)/);
  const allowEnv = /--allow-env=(\S+)/.exec(start)?.[1].split(",") ?? [];
  for (const [name] of CONFIG_VARIABLES) assert.ok(allowEnv.includes(name), `${name} not allowed`);
});

test("readme: the first screen shows the two setup commands", () => {
  const firstScreen = readme.split("\n").slice(0, 25).join("\n");
  assert.match(firstScreen, /npx -y deno@2\.9\.6 task start/);
  assert.match(firstScreen, /npx -y deno@2\.9\.6 task test/);
});

/** The README's "Try it" block, run by sh with stand-ins for npx and curl that log each call. */
async function tryIt(demoKey: string): Promise<{ code: number; calls: string[]; stderr: string }> {
  const block = /## Try it\n\n```sh\n([\s\S]*?)```/.exec(readme)![1];
  const bin = await Deno.makeTempDir({ prefix: "onda_tryit_" });
  try {
    const log = `${bin}/calls`;
    await Deno.writeTextFile(
      `${bin}/npx`,
      `#!/bin/sh\necho "npx $*" >> ${log}\n` +
        `case "$*" in *"task demo"*) [ -n "${demoKey}" ] && echo "${demoKey}";; esac\n` +
        `case "$*" in *"task demo"*) [ -n "${demoKey}" ] || exit 1;; esac\nexit 0\n`,
    );
    await Deno.writeTextFile(`${bin}/curl`, `#!/bin/sh\necho "curl $*" >> ${log}\necho '{}'\n`);
    await Deno.chmod(`${bin}/npx`, 0o755);
    await Deno.chmod(`${bin}/curl`, 0o755);
    const output = await new Deno.Command("sh", {
      args: ["-c", block],
      cwd: bin,
      env: { PATH: `${bin}:/usr/bin:/bin` },
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).output();
    const calls = (await Deno.readTextFile(log).catch(() => "")).trim().split("\n").filter(Boolean);
    return { code: output.code, calls, stderr: new TextDecoder().decode(output.stderr) };
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
}

test("readme: Try it stops when the demo printed no key", async () => {
  const run = await tryIt("");
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /deno task demo printed no key/);
  assert.deepEqual(run.calls, ["npx -y deno@2.9.6 task demo"], "nothing after the demo runs");
});

test("readme: Try it waits for /status before its first request", async () => {
  const run = await tryIt("onda_ads_" + "k".repeat(43));
  assert.equal(run.code, 0, run.stderr);
  const curls = run.calls.filter((call) => call.startsWith("curl "));
  assert.ok(run.calls.includes("npx -y deno@2.9.6 task start"));
  assert.match(curls[0], /--retry-connrefused .*http:\/\/localhost:8080\/status$/);
  assert.ok(curls.length > 1, "requests follow the wait");
  assert.ok(curls.slice(1).every((call) => !call.endsWith("/status")));
});
