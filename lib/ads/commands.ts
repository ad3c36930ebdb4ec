// Admin commands of the ads API (contract.md §4): accounts, grants, keys, import, approval.

import { approveSnapshot, importSnapshot } from "./import.ts";
import { SCOPE_ID } from "./params.ts";
import { generateKey, type Permission, PERMISSIONS } from "./apikey.ts";
import { type Args, type Command, flag, isoFlag, onlyFlags, UsageError } from "../cli.ts";

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

export const adsCommands: Command[] = [
  {
    name: "account create",
    usage: "account create <id> --name N",
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
    name: "grant",
    usage: "grant <account> --stations a,b --brands x,y --from ISO --until ISO",
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
        select id, decode(${key.digestHex}, 'hex'), ${key.prefix}, ${label}, ${permissions}::text[]
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
    usage: "key list <account>",
    async run(args, ctx) {
      onlyFlags(args, []);
      const id = accountId(args);
      const rows = await ctx.db.sql<{
        id: string;
        prefix: string;
        label: string | null;
        created_at: Date;
        revoked_at: Date | null;
      }>`
        select id, prefix, label, created_at, revoked_at from ads_api_keys
         where account_id = ${id} order by created_at, id`;
      for (const row of rows) {
        const created = row.created_at.toISOString();
        const revoked = row.revoked_at?.toISOString() ?? "-";
        ctx.out([row.id, row.prefix, row.label ?? "-", created, revoked].join("\t"));
      }
    },
  },
  {
    name: "key revoke",
    usage: "key revoke <key-id>",
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
    name: "snapshot approve",
    usage: "snapshot approve <id>",
    async run(args, ctx) {
      onlyFlags(args, []);
      const id = one(args, "snapshot id");
      await approveSnapshot(ctx.db, id);
      ctx.out(`snapshot ${id} approved`);
    },
  },
];
