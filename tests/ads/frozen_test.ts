// Pages are read from rows, figures and coverage from the parts an approval packed: rows of an
// approved snapshot cannot change under them (sql/014_ads_approved_frozen.sql), a withdrawn
// approval takes its parts with it, and a grant's bounds are whole milliseconds.

import assert from "node:assert/strict";
import { admin, DAY, expectedOccurrences, type Fixture, loadFixture } from "./_fixture.ts";
import { body, startTestService, test } from "../_server.ts";

const service = await startTestService({ env: { RATE_LIMIT_KEY_PER_MINUTE: "1000000" } });
const fx: Fixture = await loadFixture(service, 11);
const iso = (ms: number) => new Date(ms).toISOString();
// deno-lint-ignore no-explicit-any
type Json = any;

async function get(path: string, key: string): Promise<Json> {
  const res = await service.fetch(path, { headers: { authorization: `Bearer ${key}` } });
  const json = await body<Json>(res);
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** acme's first 20 days: the pages' ids, their total, the summary's and coverage's figures. */
async function answers() {
  const grant = fx.grants.get("acme")!;
  const key = fx.keys.get("acme")!;
  const period = `since=${iso(grant.since)}&until=${iso(grant.since + 20 * DAY)}`;
  const ids: string[] = [];
  let total = 0;
  for (let offset = 0;; offset += 100) {
    const page = await get(`/api/v1/ads?${period}&limit=100&offset=${offset}`, key);
    ids.push(...page.data.map((o: Json) => o.id));
    total = page.meta.total;
    if (!page.meta.has_more) break;
  }
  const summary = (await get(`/api/v1/reports/summary?${period}`, key)).data;
  const coverage = (await get(`/api/v1/coverage?${period}`, key)).data;
  return {
    ids,
    total,
    summed: summary.totals.occurrences,
    captures: coverage.reduce((n: number, s: Json) => n + s.captures, 0),
  };
}

/** The SQLSTATE a statement fails with, or null when it succeeds. */
async function failure(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string }; message: string };
    return e.code ?? e.cause?.code ?? e.message;
  }
}

/** A confirmed occurrence of snap-a in acme's first 20 days, with a granted brand. */
function acmeOccurrence() {
  const grant = fx.grants.get("acme")!;
  return expectedOccurrences(fx, grant, grant.since, grant.since + 20 * DAY)
    .find((o) => o.snapshot === "snap-a")!;
}

test("ads: rows of an approved snapshot cannot be changed, removed or emptied by SQL", async () => {
  const before = await answers();
  const occurrence = acmeOccurrence();
  const { sql } = service.db;
  const refusals = [
    await failure(() =>
      sql`update ads_occurrences set duration_ms = duration_ms + 1000
                             where id = ${occurrence.id}::uuid`
    ),
    await failure(() => sql`delete from ads_occurrences where id = ${occurrence.id}::uuid`),
    await failure(() =>
      sql`update ads_captures set ended_at = ended_at + interval '1 hour'
                             where snapshot_seq = (select seq from ads_snapshots
                                                    where id = 'snap-a')`
    ),
    await failure(() =>
      sql`update ads_occurrences
                               set snapshot_seq = (select seq from ads_snapshots where id = 'snap-a')
                             where snapshot_seq = (select seq from ads_snapshots
                                                    where id = 'snap-b')`
    ),
    await failure(() => sql`truncate ads_occurrences`),
    await failure(() => sql`truncate ads_captures`),
  ];
  assert.deepEqual(refusals, ["23514", "23514", "23514", "23514", "23514", "23514"]);
  // A snapshot still pending may be corrected freely: nothing of it is packed or served.
  assert.equal(
    await failure(() =>
      sql`update ads_occurrences set duration_ms = duration_ms + 1000
                             where snapshot_seq = (select seq from ads_snapshots
                                                    where id = 'snap-b')`
    ),
    null,
  );
  assert.deepEqual(await answers(), before);
});

test("ads: a withdrawn approval takes its parts along, and approved again the corrected rows agree everywhere", async () => {
  const before = await answers();
  assert.equal(before.summed, before.total, "figures and pages agree to begin with");
  const occurrence = acmeOccurrence();
  const { sql } = service.db;
  await sql`update ads_snapshots set approved_at = null where id = 'snap-a'`;
  const withdrawn = await answers();
  assert.ok(withdrawn.total < before.total, "snap-a's rows are no longer served");
  assert.equal(withdrawn.summed, withdrawn.total, "figures follow the pages");
  assert.ok(withdrawn.captures < before.captures, "nor its captures");
  const [{ parts }] = await sql<{ parts: number }>`
    select ((select count(*) from ads_cell_parts) + (select count(*) from ads_record_parts)
            + (select count(*) from ads_capture_parts))::int as parts`;
  const [{ own }] = await sql<{ own: number }>`
    select ((select count(*) from ads_cell_parts p join ads_snapshots s on s.seq = p.snapshot_seq
              where s.id = 'snap-a')
            + (select count(*) from ads_capture_parts p join ads_snapshots s
                 on s.seq = p.snapshot_seq where s.id = 'snap-a'))::int as own`;
  assert.equal(own, 0, "no part of the withdrawn snapshot is left");
  assert.ok(parts > 0, "the other approved snapshot keeps its parts");
  // Corrected while withdrawn, then approved again: packed anew from the rows as they are.
  await sql`delete from ads_occurrences where id = ${occurrence.id}::uuid`;
  await admin(service, "snapshot", "approve", "snap-a");
  const after = await answers();
  assert.equal(after.total, before.total - 1, "one row fewer");
  assert.equal(after.summed, after.total, "figures and pages agree again");
  assert.ok(!after.ids.includes(occurrence.id));
  assert.equal(after.captures, before.captures);
});

test("ads: a grant bound between two milliseconds is refused", async () => {
  const { sql } = service.db;
  assert.equal(
    await failure(() =>
      sql`update ads_grants
                               set period_since = period_since + interval '1 microsecond'
                             where account_id = 'acme'`
    ),
    "23514",
  );
  assert.equal(
    await failure(() =>
      sql`update ads_grants
                               set period_until = period_until - interval '999 microseconds'
                             where account_id = 'acme'`
    ),
    "23514",
  );
  assert.equal(
    await failure(() =>
      sql`update ads_grants
                               set period_until = period_until - interval '1 millisecond'
                             where account_id = 'acme'`
    ),
    null,
    "whole milliseconds are fine",
  );
});

test("ads: close the service", async () => {
  await service.close();
});
