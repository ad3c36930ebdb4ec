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
