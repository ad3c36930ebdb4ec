// The admin command line explains itself: --help on every command and group (no database
// needed), lists of accounts, grants, snapshots and keys with --json, unknown accounts and keys
// as errors (exit 1), and import errors that name the allowed values.

import assert from "node:assert/strict";
import { commands, preflight } from "../../admin.ts";
import { adminRun, BASE, DAY, importLines } from "./_fixture.ts";
import { startTestService, test } from "../_server.ts";

const service = await startTestService();
const iso = (ms: number) => new Date(ms).toISOString();

async function run(...argv: string[]) {
  const { status, out, err } = await adminRun(service, ...argv);
  return { status, out: out.join("\n"), err };
}

test("admin cli: --help on every command and subcommand shows its usage, exit 0, before any database", () => {
  for (const command of commands) {
    for (
      const ask of [[...command.name.split(" "), "--help"], ["help", ...command.name.split(" ")]]
    ) {
      const answer = preflight(ask);
      assert.equal(answer?.status, 0, ask.join(" "));
      assert.match(
        answer.text,
        new RegExp(
          `^usage: deno task admin ${command.usage.replace(/[[\]().*+?^$|{}\\]/g, "\\$&")}`,
        ),
        ask.join(" "),
      );
      assert.ok(answer.text.includes(command.summary), ask.join(" "));
    }
    // Arguments and options do not hide the help: `key create acme --permissions x --help`.
    assert.equal(preflight([...command.name.split(" "), "x", "--help"])?.status, 0);
  }
  for (const group of ["key", "account", "snapshot", "maintenance", "billing"]) {
    const answer = preflight([group, "--help"]);
    assert.equal(answer?.status, 0, group);
    const listed = commands.filter((c) => c.name.startsWith(`${group} `));
    for (const command of listed) assert.ok(answer.text.includes(command.usage), command.name);
    // The group word alone is an incomplete command: its commands, on stderr, exit 2.
    assert.equal(preflight([group])?.status, 2, group);
  }
  assert.equal(preflight(["--help"])?.status, 0);
  assert.equal(preflight([])?.status, 2);
  assert.equal(preflight(["nope"])?.status, 2);
  assert.match(preflight(["nope"])?.text ?? "", /unknown command: nope/);
});

test("admin cli: help goes to stdout and runs nothing", async () => {
  const help = await run("account", "create", "helped", "--name", "H", "--help");
  assert.equal(help.status, 0);
  assert.match(help.out, /^usage: deno task admin account create/);
  assert.equal((await run("key", "list", "helped")).status, 1, "the account was not created");
});

test("admin cli: account list, grant show, snapshot list and key list, as text and as --json", async () => {
  assert.equal((await run("account", "create", "cli-a", "--name", "CLI A")).status, 0);
  assert.equal((await run("account", "create", "cli-b", "--name", "CLI B")).status, 0);
  const granted = await run(
    "grant",
    "cli-a",
    "--stations",
    "st-1,st-2",
    "--brands",
    "b-1",
    "--from",
    iso(BASE),
    "--until",
    iso(BASE + 10 * DAY),
  );
  assert.equal(granted.status, 0, granted.err);
  assert.equal(
    (await run("key", "create", "cli-a", "--permissions", "ads:read", "--label", "bi")).status,
    0,
  );

  const accounts = await run("account", "list");
  assert.match(accounts.out, /^cli-a\tCLI A\t\S+\t1 keys\tgranted$/m);
  assert.match(accounts.out, /^cli-b\tCLI B\t\S+\t0 keys\tno grant$/m);
  const accountsJson = JSON.parse((await run("account", "list", "--json")).out);
  assert.deepEqual(
    accountsJson.filter((a: { id: string }) => a.id.startsWith("cli-")).map((
      a: Record<string, unknown>,
    ) => [a.id, a.name, a.active_keys, a.granted]),
    [["cli-a", "CLI A", 1, true], ["cli-b", "CLI B", 0, false]],
  );

  const grant = await run("grant", "show", "cli-a");
  assert.match(grant.out, /stations: st-1,st-2/);
  assert.match(grant.out, /brands: +b-1/);
  assert.match(grant.out, new RegExp(`period:   ${iso(BASE)} to ${iso(BASE + 10 * DAY)}`));
  const grantJson = JSON.parse((await run("grant", "show", "--json", "cli-a")).out);
  assert.deepEqual(grantJson.grant.station_ids, ["st-1", "st-2"]);
  assert.equal(grantJson.grant.period_since, iso(BASE));
  assert.equal(JSON.parse((await run("grant", "show", "cli-b", "--json")).out).grant, null);
  assert.match((await run("grant", "show", "cli-b")).out, /has no grant/);

  const keys = JSON.parse((await run("key", "list", "cli-a", "--json")).out);
  assert.equal(keys.length, 1);
  assert.match(keys[0].prefix, /^onda_ads_/);
  assert.deepEqual([keys[0].label, keys[0].permissions, keys[0].revoked_at], [
    "bi",
    ["ads:read"],
    null,
  ]);
  assert.deepEqual(JSON.parse((await run("key", "list", "cli-b", "--json")).out), []);

  const imported = await importLines(service, [
    { type: "snapshot", id: "cli-snap", exported_at: iso(BASE + 11 * DAY) },
    { type: "station", id: "st-1", name: "Station 1" },
  ], false);
  assert.equal(imported.status, 0, imported.err.join("\n"));
  assert.match(
    (await run("snapshot", "list")).out,
    new RegExp(`^cli-snap\t${iso(BASE + 11 * DAY)}\t\\S+\t-\t0\t0$`, "m"),
  );
  const snapshots = JSON.parse((await run("snapshot", "list", "--json")).out);
  const snap = snapshots.find((s: { id: string }) => s.id === "cli-snap");
  assert.deepEqual([snap.approved_at, snap.occurrences, snap.captures], [null, 0, 0]);
});

test("admin cli: an unknown account or key is an error with exit code 1", async () => {
  for (
    const argv of [
      ["key", "list", "nobody"],
      ["key", "list", "nobody", "--json"],
      ["grant", "show", "nobody"],
      ["key", "create", "nobody", "--permissions", "ads:read"],
      [
        "grant",
        "nobody",
        "--stations=",
        "--brands=",
        "--from",
        iso(BASE),
        "--until",
        iso(BASE + DAY),
      ],
      ["key", "revoke", "0b6d7a36-7c52-4f0e-9a55-000000000000"],
      ["snapshot", "approve", "no-such-snapshot"],
    ]
  ) {
    const answer = await run(...argv);
    assert.equal(answer.status, 1, argv.join(" "));
    assert.match(answer.err, /^error: no (account|key|snapshot|such snapshot)/i, argv.join(" "));
    assert.equal(answer.out, "", argv.join(" "));
  }
});

test("admin cli: import errors name the allowed values of duration_precision and review_state", async () => {
  const occurrence = {
    type: "occurrence",
    id: "0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1f02",
    station_id: "st-1",
    ad_started_at: iso(BASE),
    ad_ended_at: iso(BASE + 30_000),
    duration_precision: "detected",
    review_state: "confirmed",
    brand_ids: ["b-1"],
  };
  const head = [
    { type: "snapshot", id: "cli-bad", exported_at: iso(BASE + 12 * DAY) },
    { type: "station", id: "st-1", name: "Station 1" },
    { type: "brand", id: "b-1", name: "Brand 1" },
  ];
  const precision = await importLines(service, [...head, {
    ...occurrence,
    duration_precision: "exact",
  }], false);
  assert.equal(precision.status, 1);
  assert.match(
    precision.err.join("\n"),
    /line 4, field duration_precision: must be one of estimated, detected, human_confirmed/,
  );
  const state = await importLines(service, [...head, { ...occurrence, review_state: "ok" }], false);
  assert.equal(state.status, 1);
  assert.match(
    state.err.join("\n"),
    /line 4, field review_state: must be one of pending, confirmed, rejected/,
  );
  const help = preflight(["import", "--help"])?.text ?? "";
  assert.match(help, /duration_precision: estimated, detected, human_confirmed/);
  assert.match(help, /review_state: pending, confirmed, rejected/);
});

test("admin cli: close", async () => {
  await service.close();
});
