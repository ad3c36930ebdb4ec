// Approving an imported snapshot, and the lock under which the admin commands change what the
// service derives its ads data from.

import type { Db, Sql } from "../db/db.ts";
import { ImportError } from "./import_lines.ts";

/**
 * The advisory lock (transaction-scoped) under which the admin commands write what the service
 * derives its ads data from: an approval, a grant and an import that names stations or brands
 * take turns. Also taken, as the number 122519921164290, by the trigger that renews the data
 * version (sql/002_ads.sql), and by any later migration that reworks the ads tables. Requests
 * never take it.
 */
export const ADS_DATA_LOCK = 0x6f6e6461_0002;

export async function lockAdsData(tx: Sql): Promise<void> {
  await tx`select pg_advisory_xact_lock(${ADS_DATA_LOCK})`;
}

/**
 * Approves a snapshot: its rows and the names it gives become visible, and its figures, records
 * and captures are packed for the services to read (sql/006_ads_blocks.sql). Reads only this
 * snapshot's rows and writes nothing per account, so its cost follows the snapshot's size alone.
 */
export async function approveSeq(tx: Sql, seq: number) {
  await lockAdsData(tx);
  // The grouping of a large snapshot sorts millions of rows; give it memory for this
  // transaction only.
  await tx`select set_config('work_mem', '256MB', true)`;
  // What the services read follows by itself: this renews the data version (sql/002_ads.sql).
  await tx`update ads_snapshots set approved_at = now() where seq = ${seq}`;
  // The snapshot's rows are found through the block range indexes, which a scan reads whole for
  // every range not summarized yet: the ranges imported since autovacuum last ran, the whole
  // table after a bulk load. Summarizing them first keeps the read to the snapshot's own ranges.
  await tx`select brin_summarize_new_values('ads_occurrences_snapshot')`;
  await tx`select brin_summarize_new_values('ads_captures_snapshot')`;
  await tx`select ads_pack_snapshot(${seq})`;
}

/** `snapshot approve <id>`: refuses an unknown or already approved snapshot. */
export async function approveSnapshot(db: Db, id: string): Promise<void> {
  await db.begin(async (tx) => {
    const [row] = await tx<{ seq: number; approved_at: Date | null }>`
      select seq, approved_at from ads_snapshots where id = ${id} for update`;
    if (!row) throw new ImportError(`no snapshot ${id}`);
    if (row.approved_at) {
      throw new ImportError(
        `snapshot ${id} was already approved at ${row.approved_at.toISOString()}`,
      );
    }
    await approveSeq(tx, row.seq);
  });
}
