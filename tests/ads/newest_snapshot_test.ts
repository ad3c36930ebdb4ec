// meta.snapshot_exported_at (contract.md §2): the newest approved snapshot with an occurrence the
// account may see. A newer snapshot on a granted station, in the granted period, whose
// occurrences carry only brands the account was not granted, does not count; one that carries a
// granted brand beside them does. Each case inside the grant period and across its edge.

import assert from "node:assert/strict";
import { addAccount, DAY, importLines, NOW } from "./_fixture.ts";
import { body, startTestService, test } from "../_server.ts";

const service = await startTestService();
service.clock.set(NOW);
const iso = (ms: number) => new Date(ms).toISOString();
const day = NOW.getTime() - 5 * DAY;

/** A snapshot exported `hoursLater` after `day`, approved, with one occurrence per start. */
async function approveSnapshot(id: string, hoursLater: number, at: number[], brands: string[][]) {
  const lines: unknown[] = [
    { type: "snapshot", id, exported_at: iso(day + hoursLater * 3_600_000) },
    { type: "station", id: "st-n", name: "Radio N" },
    { type: "brand", id: "br-yes", name: "Granted" },
    { type: "brand", id: "br-no", name: "Not granted" },
  ];
  at.forEach((start, i) =>
    lines.push({
      type: "occurrence",
      id: crypto.randomUUID(),
      station_id: "st-n",
      ad_started_at: iso(start),
      ad_ended_at: iso(start + 30_000),
      duration_precision: "detected",
      review_state: "confirmed",
      brand_ids: brands[i],
    })
  );
  const result = await importLines(service, lines, true);
  assert.equal(result.status, 0, result.err.join("\n"));
}

test("ads: snapshot_exported_at counts a snapshot only for an occurrence with a granted brand", async () => {
  try {
    await approveSnapshot("first", 1, [day + 3_600_000], [["br-yes"]]);
    const since = day - 2 * DAY;
    // The grant ends inside the day, so the day's part crosses its edge.
    for (const [k, until] of [day + 3 * DAY, day + 12 * 3_600_000].entries()) {
      const account = `acct-${until}`;
      const key = await addAccount(service, account, {
        stations: ["st-n"],
        brands: ["br-yes"],
        since,
        until,
      });
      const newest = async () => {
        const res = await service.fetch(
          `/api/v1/ads?since=${iso(since)}&until=${iso(day + DAY)}`,
          { headers: { authorization: `Bearer ${key}` } },
        );
        const json = await body<{ meta: { snapshot_exported_at: string | null } }>(res);
        assert.equal(res.status, 200);
        return json.meta.snapshot_exported_at;
      };
      const before = await newest();
      assert.ok(before !== null);
      // Newer, on the granted station and day, but only with a brand not granted: not counted.
      // Past a grant that ends at noon, a granted brand at 20:00 makes the part cross its edge.
      const past = k === 1 ? [day + 20 * 3_600_000] : [];
      await approveSnapshot(`hidden-${k}`, 10 * k + 5, [day + 2 * 3_600_000, ...past], [
        ["br-no"],
        ["br-yes"],
      ]);
      assert.equal(await newest(), before, "a snapshot with no granted brand");
      // Newer again, the granted brand beside the other one: counted.
      const shown = 10 * k + 6;
      await approveSnapshot(`shown-${k}`, shown, [day + 4 * 3_600_000], [["br-no", "br-yes"]]);
      assert.equal(await newest(), iso(day + shown * 3_600_000).replace(".000", ""), "shown");
    }
  } finally {
    await service.close();
  }
});
