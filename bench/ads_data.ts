// Benchmark data for the ads API: a realistic NDJSON snapshot (stations, brands, occurrences
// in time order with a few brands per campaign, captures with gaps), written to a file.

import { seeded } from "../lib/demo.ts";

const DAY = 86_400_000;

export interface DataShape {
  rows: number;
  stations: number;
  brands: number;
  days: number;
  /** Last midnight (UTC) of the data; the data covers the `days` before it. */
  end: number;
  /**
   * Names a further snapshot (its id, and a part of every occurrence and capture id), so that it
   * imports beside the main data set; the main one has none.
   */
  tag?: number;
}

export const stationId = (i: number) => `st-${String(i).padStart(3, "0")}`;
export const brandId = (i: number) => `brand-${String(i).padStart(4, "0")}`;

/**
 * Writes the file and returns its number of lines. Each station airs a pool of about 150
 * brands, most often its top few (a campaign runs several spots a day); 5 % of occurrences
 * carry two brands; 90 % are confirmed; captures are 1-12 h recordings, 5 % followed by an
 * outage of 5 min to 2 h. Occurrence ids grow with time, as UUIDv7 ids would.
 */
export async function writeDataset(path: string, shape: DataShape): Promise<number> {
  const random = seeded(42);
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  let buffer = "";
  let lines = 0;
  const emit = async (line: string) => {
    buffer += line + "\n";
    lines++;
    if (buffer.length >= 1 << 20) {
      const bytes = encoder.encode(buffer);
      for (let w = 0; w < bytes.length;) w += await file.write(bytes.subarray(w));
      buffer = "";
    }
  };
  const start = shape.end - shape.days * DAY;
  await emit(JSON.stringify({
    type: "snapshot",
    id: shape.tag === undefined ? `bench-${shape.rows}` : `bench-day-${shape.tag}`,
    exported_at: new Date(shape.end).toISOString(),
  }));
  for (let s = 0; s < shape.stations; s++) {
    await emit(JSON.stringify({ type: "station", id: stationId(s), name: `Radio ${s}` }));
  }
  for (let b = 0; b < shape.brands; b++) {
    await emit(JSON.stringify({ type: "brand", id: brandId(b), name: `Brand ${b}` }));
  }
  const pools = Array.from(
    { length: shape.stations },
    () => Array.from({ length: 150 }, () => brandId(Math.floor(random() * shape.brands))),
  );
  // Zipf-like: the k-th brand of a pool is picked with weight 1/(k+1).
  const pick = (pool: string[]) =>
    pool[Math.floor(Math.exp(random() * Math.log(pool.length)))] ??
      pool[0];
  const precisions = ["detected", "detected", "detected", "estimated", "human_confirmed"];
  const durations = [15_000, 20_000, 30_000, 30_000, 30_000, 45_000, 60_000];
  const captureEnd = new Array<number>(shape.stations).fill(start - 3_600_000);
  const captureCount = new Array<number>(shape.stations).fill(0);
  const perStationDay = shape.rows / (shape.stations * shape.days);
  let counter = 0;
  let made = 0;
  for (let d = 0; d < shape.days; d++) {
    const dayStart = start + d * DAY;
    const events: { t: number; line: string }[] = [];
    for (let s = 0; s < shape.stations; s++) {
      // Captures of this station reaching into the day.
      while (captureEnd[s] < dayStart + DAY) {
        const from = captureEnd[s];
        const to = from + (1 + Math.floor(random() * 12)) * 3_600_000;
        events.push({
          t: from,
          line: JSON.stringify({
            type: "capture",
            id: `${shape.tag === undefined ? "" : `day-${shape.tag}-`}${
              stationId(s)
            }-${captureCount[s]++}`,
            station_id: stationId(s),
            started_at: new Date(from).toISOString(),
            ended_at: new Date(to).toISOString(),
          }),
        });
        captureEnd[s] = to + (random() < 0.05 ? (5 + Math.floor(random() * 115)) * 60_000 : 0);
      }
      const target = Math.round(perStationDay * (s + d * shape.stations + 1)) -
        Math.round(perStationDay * (s + d * shape.stations));
      for (let k = 0; k < target && made < shape.rows; k++, made++) {
        const t = dayStart + Math.floor(random() * DAY / 1000) * 1000;
        const duration = durations[Math.floor(random() * durations.length)];
        const brands = [pick(pools[s])];
        if (random() < 0.05) {
          const second = pick(pools[s]);
          if (second !== brands[0]) brands.push(second);
        }
        const r = random();
        events.push({
          t,
          line: `{"type":"occurrence","id":"","station_id":"${stationId(s)}",` +
            `"ad_started_at":"${new Date(t).toISOString()}",` +
            `"ad_ended_at":"${new Date(t + duration).toISOString()}",` +
            `"duration_precision":"${precisions[Math.floor(random() * precisions.length)]}",` +
            `"review_state":"${r < 0.9 ? "confirmed" : r < 0.97 ? "pending" : "rejected"}",` +
            `"brand_ids":${JSON.stringify(brands)}}`,
        });
      }
    }
    events.sort((a, b) => a.t - b.t);
    for (const event of events) {
      let line = event.line;
      if (line.startsWith('{"type":"occurrence","id":""')) {
        const id = `${(shape.tag ?? 0).toString(16).padStart(8, "0")}-0000-4000-8000-${
          (counter++).toString(16).padStart(12, "0")
        }`;
        line = line.replace('"id":""', `"id":"${id}"`);
      }
      await emit(line);
    }
  }
  const bytes = encoder.encode(buffer);
  for (let w = 0; w < bytes.length;) w += await file.write(bytes.subarray(w));
  file.close();
  return lines;
}
