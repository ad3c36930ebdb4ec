// Summaries answered in parallel under a cache that keeps little: each must equal the answer
// given alone, whatever the other requests evict while it waits.

import assert from "node:assert/strict";
import { addAccount, BASE, bearer, DAY, loadFixture } from "./_fixture.ts";
import { body, startTestService, test } from "../_server.ts";

const iso = (ms: number) => new Date(ms).toISOString();

for (const mb of ["0.01", "0.03", "0.1"]) {
  test(`reports: parallel summaries with brand_id filters equal the answers alone (ADS_CACHE_MB=${mb})`, async () => {
    const service = await startTestService({ env: { ADS_CACHE_MB: mb } });
    try {
      await loadFixture(service);
      const brands = ["br.1", "br.2", "br.3", "br.4", "br.5", "br.6", "br.7", "br.8"];
      const key = await addAccount(service, "wide", {
        stations: ["st-1", "st-2", "st-3", "st-4", "st-5", "st-6"],
        brands,
        since: BASE,
        until: BASE + 30 * DAY,
      });
      const queries = ["", ...brands.map((b) => `&brand_id=${b}`)].map((q) =>
        `/api/v1/reports/summary?since=${iso(BASE)}&until=${iso(BASE + 30 * DAY)}${q}`
      );
      const totals = async (path: string) => {
        const res = await service.fetch(path, bearer(key));
        assert.equal(
          res.status,
          200,
          `${path}: ${res.status} ${res.status === 200 ? "" : await res.clone().text()}`,
        );
        return JSON.stringify((await body<{ data: { totals: unknown } }>(res)).data.totals);
      };
      const alone: string[] = [];
      for (const path of queries) alone.push(await totals(path));
      for (let round = 0; round < 8; round++) {
        // Past the per-key rate limit's minute.
        service.clock.set(new Date(service.clock().getTime() + 61_000));
        const together = await Promise.all([...queries, ...queries].map(totals));
        assert.deepEqual(together, [...alone, ...alone], `round ${round}`);
      }
    } finally {
      await service.close();
    }
  });
}
