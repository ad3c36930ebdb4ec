// Admin commands of the ads API (contract.md §4): accounts, grants, keys, import, approval.

import { approveSnapshot } from "./approval.ts";
import { importSnapshot } from "./import.ts";
import { DURATION_PRECISIONS, REVIEW_STATES } from "./import_lines.ts";
import { SCOPE_ID } from "./params.ts";
import { generateKey, type Permission, PERMISSIONS } from "./apikey.ts";
import {
  type Args,
  type Command,
  type CommandContext,
  flag,
  isoFlag,
  noArguments,
  onlyFlags,
  printJson,
  printRows,
  UsageError,
  wantsJson,
} from "../cli.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function one(args: Args, what: string): string {
  if (args.positional.length !== 1) throw new UsageError(`give exactly one ${what}`);
  return args.positional[0];
}

function accountId(args: Args): string {
  const id = one(args, "account id");
  if (!SCOPE_ID.test(id)) {
    throw new UsageError("an account id is 1 to 64 letters, digits, dots, underscores or hyphens");
  }
  return id;
}

/** A comma-separated id list; `--stations=` (empty) grants none. */
function idList(args: Args, name: string): string[] {
  const raw = args.flags[name];
  if (raw === undefined) throw new UsageError(`--${name} is required (use --${name}= for none)`);
  if (raw === true || raw === "") return [];
  const ids = [...new Set(raw.split(",").map((s) => s.trim()).filter(Boolean))].sort();
  for (const id of ids) {
    if (!SCOPE_ID.test(id)) throw new UsageError(`--${name}: "${id}" is not a valid id`);
  }
  return ids;
}

/** Runtime failures (as opposed to wrong invocations): admin.ts prints them and exits 1. */
function refuse(message: string): never {
  throw new Error(message);
}

/** An account that does not exist is an error, not an empty answer. */
async function knownAccount(ctx: CommandContext, id: string) {
  const [row] = await ctx.db.sql`select 1 from ads_accounts where id = ${id}`;
  if (!row) refuse(`no account ${id} (deno task admin account list shows them)`);
}

export const adsCommands: Command[] = [
  {
    name: "account create",
    usage: "account create <id> --name N",
    summary: "Create an ads API account (no grant, no key yet).",
    help: "  <id>        1 to 64 letters, digits, dots, underscores or hyphens\n" +
      "  --name N    its display name\nAn id that exists already is an error (exit 1).",
    async run(args, ctx) {
      onlyFlags(args, ["name"]);
      const id = accountId(args);
      const name = flag(args, "name", true);
      const rows = await ctx.db.sql`
        insert into ads_accounts (id, name) values (${id}, ${name})
        on conflict (id) do nothing returning id`;
      if (!rows.length) refuse(`account ${id} already exists`);
      ctx.out(`account ${id} created`);
    },
  },
  {
    name: "account list",
    usage: "account list [--json]",
    summary: "List the accounts: id, name, created_at, active keys, granted (yes or no).",
    help: "  --json   one JSON array instead of tab-separated lines",
    async run(args, ctx) {
      onlyFlags(args, ["json"]);
      const json = wantsJson(args);
      noArguments(args, "account list");
      const rows = await ctx.db.sql<{
        id: string;
        name: string;
        created_at: Date;
        active_keys: number;
        granted: boolean;
      }>`
        select a.id, a.name, a.created_at,
               (select count(*) from ads_api_keys k
                 where k.account_id = a.id and k.revoked_at is null)::int as active_keys,
               exists (select 1 from ads_grants g where g.account_id = a.id) as granted
          from ads_accounts a order by a.id`;
      printRows(ctx, json, rows, (row) => [
        row.id,
        row.name,
        row.created_at.toISOString(),
        `${row.active_keys} keys`,
        row.granted ? "granted" : "no grant",
      ]);
    },
  },
  {
    name: "grant show",
    usage: "grant show <account> [--json]",
    summary: "Show the account's grant: stations, brands and period.",
    help: "  --json   one JSON object (grant: null when it has none)\n" +
      "An unknown account is an error (exit 1).",
    async run(args, ctx) {
      onlyFlags(args, ["json"]);
      const json = wantsJson(args);
      const id = accountId(args);
      await knownAccount(ctx, id);
      const [grant] = await ctx.db.sql<{
        station_ids: string[];
        brand_ids: string[];
        period_since: Date;
        period_until: Date;
        updated_at: Date;
      }>`
        select station_ids, brand_ids, period_since, period_until, updated_at
          from ads_grants where account_id = ${id}`;
      if (json) return printJson(ctx, { account: id, grant: grant ?? null });
      if (!grant) return ctx.out(`account ${id} has no grant (deno task admin grant ${id} ...)`);
      ctx.out(`account:  ${id}`);
      ctx.out(`stations: ${grant.station_ids.join(",") || "(none)"}`);
      ctx.out(`brands:   ${grant.brand_ids.join(",") || "(none)"}`);
      ctx.out(
        `period:   ${grant.period_since.toISOString()} to ${grant.period_until.toISOString()}`,
      );
      ctx.out(`updated:  ${grant.updated_at.toISOString()}`);
    },
  },
  {
    name: "grant",
    usage: "grant <account> --stations a,b --brands x,y --from ISO --until ISO",
    summary: "Replace the account's grant: what its keys may read.",
    help: "  --stations a,b   station ids (--stations= for none)\n" +
      "  --brands x,y     brand ids (--brands= for none)\n" +
      "  --from, --until  the granted period, date-times with a time zone, until after from\n" +
      "Ids not imported yet are allowed, with a warning. Requests apply a new grant from the " +
      "next one on.\nAn unknown account is an error (exit 1).",
    async run(args, ctx) {
      onlyFlags(args, ["stations", "brands", "from", "until"]);
      const id = accountId(args);
      const stations = idList(args, "stations");
      const brands = idList(args, "brands");
      const from = isoFlag(args, "from");
      const until = isoFlag(args, "until");
      if (!from || !until) throw new UsageError("--from and --until are required");
      if (until <= from) throw new UsageError("--until must be after --from");
      // One row: requests apply the grant as they read it (lib/ads/scope.ts), and a new
      // version keeps a request that read the old one from mixing the two.
      const [account] = await ctx.db.sql`
        insert into ads_grants (account_id, station_ids, brand_ids, period_since, period_until)
        select id, ${stations}::text[], ${brands}::text[], ${from}, ${until}
          from ads_accounts where id = ${id}
        on conflict (account_id) do update
           set station_ids = excluded.station_ids, brand_ids = excluded.brand_ids,
               period_since = excluded.period_since,
               period_until = excluded.period_until, updated_at = now(),
               version = gen_random_uuid()
        returning account_id`;
      if (!account) refuse(`no account ${id}`);
      const [unknown] = await ctx.db.sql<{ stations: string[]; brands: string[] }>`
        select array(select s from unnest(${stations}::text[]) s
                      where s not in (select id from ads_stations)) as stations,
               array(select b from unnest(${brands}::text[]) b
                      where b not in (select id from ads_brands)) as brands`;
      if (unknown.stations.length || unknown.brands.length) {
        // Allowed (grants may precede the data), but worth a warning: they match nothing yet.
        ctx.err(
          `warning: not imported yet: ${[...unknown.stations, ...unknown.brands].join(", ")}`,
        );
      }
      ctx.out(
        `grant of ${id} replaced: ${stations.length} stations, ${brands.length} brands, ` +
          `${from.toISOString()} to ${until.toISOString()}`,
      );
    },
  },
  {
    name: "key create",
    usage: "key create <account> --permissions ads:read,reports:read,coverage:read [--label L]",
    summary: "Create an API key for the account; the key is the last line, shown once.",
    help: `  --permissions   comma-separated, of: ${PERMISSIONS.join(", ")}\n` +
      "  --label L       a name to recognise it by in key list\n" +
      "Only the key's digest is stored. An unknown account is an error (exit 1).",
    async run(args, ctx) {
      onlyFlags(args, ["permissions", "label"]);
      const id = accountId(args);
      const permissions = [
        ...new Set(flag(args, "permissions", true).split(",").map((p) => p.trim())),
      ];
      for (const p of permissions) {
        if (!PERMISSIONS.includes(p as Permission)) {
          throw new UsageError(`unknown permission ${p}; use ${PERMISSIONS.join(", ")}`);
        }
      }
      const label = flag(args, "label") ?? null;
      const key = generateKey();
      const [row] = await ctx.db.sql<{ id: string }>`
        insert into ads_api_keys (account_id, digest, prefix, label, permissions)
        select id, ${key.digest}, ${key.prefix}, ${label}, ${permissions}::text[]
          from ads_accounts where id = ${id}
        returning id`;
      if (!row) refuse(`no account ${id}`);
      ctx.out(`key ${row.id} created for account ${id} (${permissions.join(", ")})`);
      ctx.out("the key is shown once; only its digest is stored:");
      ctx.out(key.key);
    },
  },
  {
    name: "key list",
    usage: "key list <account> [--json]",
    summary: "List the account's keys: id, prefix, label, created_at, revoked_at (or -).",
    help: "  --json   one JSON array instead of tab-separated lines\n" +
      "An unknown account is an error (exit 1).",
    async run(args, ctx) {
      onlyFlags(args, ["json"]);
      const json = wantsJson(args);
      const id = accountId(args);
      await knownAccount(ctx, id);
      const rows = await ctx.db.sql<{
        id: string;
        prefix: string;
        label: string | null;
        permissions: string[];
        created_at: Date;
        revoked_at: Date | null;
      }>`
        select id, prefix, label, permissions, created_at, revoked_at from ads_api_keys
         where account_id = ${id} order by created_at, id`;
      printRows(ctx, json, rows, (row) => [
        row.id,
        row.prefix,
        row.label ?? "-",
        row.created_at.toISOString(),
        row.revoked_at?.toISOString() ?? "-",
      ]);
    },
  },
  {
    name: "key revoke",
    usage: "key revoke <key-id>",
    summary: "Revoke a key; it is refused from the next request on.",
    help: "  <key-id>   the key's UUID (key list shows it)\nAn unknown key is an error (exit 1).",
    async run(args, ctx) {
      onlyFlags(args, []);
      const id = one(args, "key id");
      if (!UUID.test(id)) throw new UsageError("a key id is a UUID (see key list)");
      const rows = await ctx.db.sql<{ revoked_at: Date }>`
        update ads_api_keys set revoked_at = coalesce(revoked_at, now())
         where id = ${id} returning revoked_at`;
      if (!rows.length) refuse(`no key ${id}`);
      ctx.out(`key ${id} revoked at ${rows[0].revoked_at.toISOString()}`);
    },
  },
  {
    name: "import",
    usage: "import <file.ndjson> [--approve]",
    summary: "Import a snapshot (NDJSON) in one transaction; served once approved.",
    help: "  --approve   approve it as soon as it is imported\n" +
      'Line 1: {"type":"snapshot","id"?,"exported_at"}; then lines of type station ' +
      "{id,name}, brand {id,name}, occurrence {id, station_id, ad_started_at, ad_ended_at, " +
      "duration_precision, review_state, brand_ids} and capture {id, station_id, started_at, " +
      "ended_at}.\n" +
      `  duration_precision: ${DURATION_PRECISIONS.join(", ")}\n` +
      `  review_state: ${REVIEW_STATES.join(", ")} (only confirmed ones are served)\n` +
      "A bad line is reported as `line N, field F: ...` and nothing is kept (exit 1).",
    async run(args, ctx) {
      onlyFlags(args, ["approve"]);
      const path = one(args, "file");
      if (args.flags.approve !== undefined && args.flags.approve !== true) {
        throw new UsageError("--approve takes no value");
      }
      // Closed when run ends, unless the stream has closed it already.
      using file = await Deno.open(path, { read: true }).catch((err) =>
        refuse(`cannot read ${path}: ${err instanceof Error ? err.message : err}`)
      );
      const result = await importSnapshot(ctx.db, file.readable, {
        approve: args.flags.approve === true,
        progress: ctx.err,
        reread: async () => (await Deno.open(path, { read: true })).readable,
      });
      const rate = Math.round(result.occurrences / Math.max(result.seconds, 0.001));
      ctx.out(
        `snapshot ${result.snapshotId} imported: ${result.occurrences} occurrences, ` +
          `${result.captures} captures, ${result.stations} station and ${result.brands} brand ` +
          `lines in ${result.seconds.toFixed(1)} s (${rate} occurrences/s)`,
      );
      ctx.out(
        result.approved
          ? `snapshot ${result.snapshotId} approved`
          : `not served until approved: deno task admin snapshot approve ${result.snapshotId}`,
      );
    },
  },
  {
    name: "snapshot list",
    usage: "snapshot list [--json]",
    summary: "List the imported snapshots: id, exported_at, imported_at, approved_at (or -), " +
      "occurrences, captures.",
    help: "  --json   one JSON array instead of tab-separated lines",
    async run(args, ctx) {
      onlyFlags(args, ["json"]);
      const json = wantsJson(args);
      noArguments(args, "snapshot list");
      const rows = await ctx.db.sql<{
        id: string;
        exported_at: Date;
        imported_at: Date;
        approved_at: Date | null;
        occurrences: string | number | bigint;
        captures: string | number | bigint;
      }>`
        select id, exported_at, imported_at, approved_at, occurrences::int8 as occurrences,
               captures::int8 as captures
          from ads_snapshots order by seq`;
      // Counts are bigint in the database; as numbers they print alike in text and JSON.
      const counted = rows.map((row) => ({
        ...row,
        occurrences: Number(row.occurrences),
        captures: Number(row.captures),
      }));
      printRows(ctx, json, counted, (row) => [
        row.id,
        row.exported_at.toISOString(),
        row.imported_at.toISOString(),
        row.approved_at?.toISOString() ?? "-",
        row.occurrences,
        row.captures,
      ]);
    },
  },
  {
    name: "snapshot approve",
    usage: "snapshot approve <id>",
    summary: "Approve an imported snapshot: the ads API serves it from now on.",
    help: "  <id>   the snapshot id (snapshot list shows them)\n" +
      "An unknown snapshot is an error (exit 1).",
    async run(args, ctx) {
      onlyFlags(args, []);
      const id = one(args, "snapshot id");
      await approveSnapshot(ctx.db, id);
      ctx.out(`snapshot ${id} approved`);
    },
  },
];
