// Capture runs: per station, the maximal unions of overlapping or touching approved captures,
// kept in ads_capture_runs so that /api/v1/coverage reads a few runs instead of every capture.

import { lockAdsFigures } from "./ads_scope.ts";
import type { Sql } from "./db.ts";

/**
 * Recomputes the runs of every station that has captures in snapshot `seq`, from all approved
 * captures of those stations (ads_rebuild_capture_runs, sql/007_capture_run_bounds.sql). Called
 * in the transaction that approves the snapshot, after it is marked approved: a new capture can
 * join, bridge or extend runs anywhere in a station's history, so the station's runs are rebuilt
 * whole rather than patched. One ordered pass over the stations' captures (about 1 s for the
 * 534,652 captures of 200 stations of the bench data).
 */
export async function refreshCaptureRuns(tx: Sql, seq: number): Promise<void> {
  const stations = (await tx<{ station_id: string }>`
    select distinct station_id from ads_captures where snapshot_seq = ${seq}`)
    .map((row) => row.station_id);
  if (stations.length === 0) return;
  // Two approvals at once would each rebuild from captures the other has not committed yet.
  await lockAdsFigures(tx);
  await tx`select ads_rebuild_capture_runs(${stations}::text[])`;
}
