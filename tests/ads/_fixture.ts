// Ads test fixture: a small seeded data set imported through the real `admin import`, accounts
// with overlapping and disjoint grants, and keys created through the real admin commands.
// The records are returned too, so tests compute expected answers independently of the SQL.

import { runAdmin } from "../../admin.ts";
import type { CommandContext } from "../../lib/cli.ts";
import type { TestService } from "../_server.ts";

export const DAY = 86_400_000;
export const BASE = Date.parse("2026-10-01T00:00:00Z");
/** The service clock is set here: the data spans the 20 days before. */
export const NOW = new Date(BASE + 20 * DAY);

export interface Occ {
  id: string;
  station_id: string;
  start: number;
  end: number;
  duration_precision: string;
  review_state: string;
  brand_ids: string[];
  snapshot: string;
}

export interface Capture {
  id: string;
  station_id: string;
  start: number;
  end: number;
  snapshot: string;
}

export interface Grant {
  stations: string[];
  brands: string[];
  since: number;
  until: number;
}

export interface Fixture {
  stations: Map<string, string>;
  brands: Map<string, string>;
  occurrences: Occ[];
  captures: Capture[];
  /** exported_at (ms) of each snapshot, and whether it is approved. */
  snapshots: Map<string, { exportedAt: number; approved: boolean }>;
  grants: Map<string, Grant>;
  /** account -> key with every permission */
  keys: Map<string, string>;
}

/** Mulberry32: a small seeded generator, so a failing case can be replayed. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: T[]) => items[Math.floor(next() * items.length)],
  };
}

function uuidFrom(rand: ReturnType<typeof seeded>): string {
  const hex = Array.from({ length: 32 }, () => rand.int(16).toString(16)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${
    hex.slice(20)
  }`;
}

export function adminContext(service: TestService, out: string[] = [], err: string[] = []) {
  const ctx: CommandContext = {
    db: service.db,
    config: service.app.config,
    clock: service.clock,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  };
  return ctx;
}

/** Runs an admin command; answers its exit status, stdout lines and stderr text. */
export async function adminRun(service: TestService, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runAdmin(argv, adminContext(service, out, err));
  return { status, out, err: err.join("\n") };
}

/** Runs an admin command; throws with its stderr when it fails. Returns stdout lines. */
export async function admin(service: TestService, ...argv: string[]): Promise<string[]> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runAdmin(argv, adminContext(service, out, err));
  if (status !== 0) {
    throw new Error(`admin ${argv.join(" ")} failed (${status}): ${err.join("\n")}`);
  }
  return out;
}

export async function importLines(
  service: TestService,
  lines: unknown[],
  approve: boolean,
): Promise<{ status: number; out: string[]; err: string[] }> {
  const path = await Deno.makeTempFile({ suffix: ".ndjson" });
  // A string is written as it is (to test lines that are not JSON).
  const text = lines.map((l) => typeof l === "string" ? l : JSON.stringify(l));
  await Deno.writeTextFile(path, text.join("\n") + "\n");
  const out: string[] = [];
  const err: string[] = [];
  const argv = ["import", path, ...(approve ? ["--approve"] : [])];
  const status = await runAdmin(argv, adminContext(service, out, err));
  await Deno.remove(path);
  return { status, out, err };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Builds, imports and grants the fixture; seed changes the data, not its shape. */
/** `admin grant`: replaces the account's grant with this one. */
export async function grantTo(service: TestService, account: string, grant: Grant) {
  await admin(
    service,
    "grant",
    account,
    `--stations=${grant.stations.join(",")}`,
    `--brands=${grant.brands.join(",")}`,
    "--from",
    iso(grant.since),
    "--until",
    iso(grant.until),
  );
}

/** A new account with this grant, through the admin commands; returns a key with every permission. */
export async function addAccount(service: TestService, account: string, grant: Grant) {
  await admin(service, "account", "create", account, "--name", `Account ${account}`);
  await grantTo(service, account, grant);
  const out = await admin(
    service,
    "key",
    "create",
    account,
    "--permissions",
    "ads:read,reports:read,coverage:read",
    "--label",
    "tests",
  );
  return out[out.length - 1];
}

export async function loadFixture(service: TestService, seed = 7): Promise<Fixture> {
  const rand = seeded(seed);
  const stations = new Map<string, string>();
  for (let i = 1; i <= 6; i++) stations.set(`st-${i}`, `Radio ${i}`);
  const brands = new Map<string, string>();
  for (let i = 1; i <= 8; i++) brands.set(`br.${i}`, `Brand ${i}`);
  const stationIds = [...stations.keys()];
  const brandIds = [...brands.keys()];
  const snapshots = new Map([
    ["snap-a", { exportedAt: BASE + 21 * DAY, approved: true }],
    ["snap-b", { exportedAt: BASE + 22 * DAY, approved: false }],
    ["snap-c", { exportedAt: BASE + 23 * DAY, approved: true }],
  ]);
  const occurrences: Occ[] = [];
  const captures: Capture[] = [];
  for (const snapshot of snapshots.keys()) {
    const count = snapshot === "snap-a" ? 320 : 60;
    for (let i = 0; i < count; i++) {
      // Whole seconds mostly, some milliseconds, some exactly on day and hour edges.
      const start = rand.next() < 0.1
        ? BASE + rand.int(21) * DAY
        : BASE + rand.int(21 * 24) * 3_600_000 + rand.int(3600) * 1000 +
          (rand.next() < 0.2 ? rand.int(1000) : 0);
      const brandCount = rand.next() < 0.2 ? 2 : 1;
      const set = new Set<string>();
      while (set.size < brandCount) set.add(rand.pick(brandIds));
      occurrences.push({
        id: uuidFrom(rand),
        station_id: rand.pick(stationIds),
        start,
        end: start + (5 + rand.int(56)) * 1000 + rand.int(2) * 500,
        duration_precision: rand.pick(["estimated", "detected", "human_confirmed"]),
        review_state: rand.next() < 0.75 ? "confirmed" : rand.pick(["pending", "rejected"]),
        brand_ids: [...set],
        snapshot,
      });
    }
    for (const station of stationIds) {
      let t = BASE - DAY + rand.int(6) * 3_600_000;
      let n = 0;
      while (t < BASE + 21 * DAY && snapshot !== "snap-b") {
        const length = (1 + rand.int(12)) * 3_600_000;
        captures.push({
          id: `${snapshot}-${station}-${n++}`,
          station_id: station,
          start: t,
          end: t + length,
          snapshot,
        });
        // Mostly back to back, sometimes overlapping, sometimes a gap.
        const r = rand.next();
        t += length + (r < 0.5 ? 0 : r < 0.7 ? -600_000 : (1 + rand.int(240)) * 60_000);
      }
    }
  }
  // At each station, a second occurrence starting with its first confirmed one (same brands): a
  // station's page must order such ties by id.
  for (const station of stationIds) {
    const first = occurrences.find((o) =>
      o.snapshot === "snap-a" && o.station_id === station && o.review_state === "confirmed"
    );
    if (first) {
      // Imported after it, sorted before it: neither import order nor chance passes for id order.
      const id = "00000000" + first.id.slice(8);
      if (id === first.id) throw new Error("fixture: pick another seed");
      occurrences.push({ ...first, id, brand_ids: [...first.brand_ids] });
    }
  }
  for (const [snapshot, info] of snapshots) {
    const lines: unknown[] = [{
      type: "snapshot",
      id: snapshot,
      exported_at: iso(info.exportedAt),
    }];
    for (const [id, name] of stations) lines.push({ type: "station", id, name });
    for (const [id, name] of brands) lines.push({ type: "brand", id, name });
    for (const o of occurrences.filter((o) => o.snapshot === snapshot)) {
      lines.push({
        type: "occurrence",
        id: o.id,
        station_id: o.station_id,
        ad_started_at: iso(o.start),
        ad_ended_at: iso(o.end),
        duration_precision: o.duration_precision,
        review_state: o.review_state,
        brand_ids: o.brand_ids,
      });
    }
    for (const c of captures.filter((c) => c.snapshot === snapshot)) {
      lines.push({
        type: "capture",
        id: c.id,
        station_id: c.station_id,
        started_at: iso(c.start),
        ended_at: iso(c.end),
      });
    }
    const result = await importLines(service, lines, info.approved);
    if (result.status !== 0) throw new Error(`fixture import failed: ${result.err.join("\n")}`);
  }

  const grants = new Map<string, Grant>([
    // Overlapping stations and brands with beta; a period with mid-day edges.
    ["acme", {
      stations: ["st-1", "st-2", "st-3"],
      brands: ["br.1", "br.2", "br.3", "br.4"],
      since: BASE + 2 * DAY + 6 * 3_600_000,
      until: BASE + 15 * DAY + 18 * 3_600_000,
    }],
    ["beta", {
      stations: ["st-3", "st-4", "st-5"],
      brands: ["br.4", "br.5", "br.6"],
      since: BASE,
      until: BASE + 30 * DAY,
    }],
    // Disjoint from both.
    ["gamma", {
      stations: ["st-6"],
      brands: ["br.7", "br.8"],
      since: BASE + 10 * DAY,
      until: BASE + 19 * DAY,
    }],
  ]);
  const keys = new Map<string, string>();
  for (const [account, grant] of grants) {
    keys.set(account, await addAccount(service, account, grant));
  }
  service.clock.set(NOW);
  return { stations, brands, occurrences, captures, snapshots, grants, keys };
}

/** What /ads must list for a grant, a period and filters: the rules, restated in plain code. */
export function expectedOccurrences(
  fx: Fixture,
  grant: Grant,
  since: number,
  until: number,
  station?: string,
  brand?: string,
): Occ[] {
  const from = Math.max(since, grant.since);
  const to = Math.min(until, grant.until);
  return fx.occurrences
    .filter((o) =>
      fx.snapshots.get(o.snapshot)!.approved && o.review_state === "confirmed" &&
      grant.stations.includes(o.station_id) && (!station || o.station_id === station) &&
      o.start >= from && o.start < to &&
      o.brand_ids.some((b) => grant.brands.includes(b) && (!brand || b === brand))
    )
    .sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Coverage of one station, restated from the fixture: union of clipped approved captures. */
export function expectedCoverage(
  fx: Fixture,
  station: string,
  since: number,
  until: number,
  gapMs: number,
) {
  const spans = fx.captures
    .filter((c) =>
      c.station_id === station && fx.snapshots.get(c.snapshot)!.approved && c.start < until &&
      c.end > since
    )
    .map((c) => [Math.max(c.start, since), Math.min(c.end, until)])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let covered = 0;
  let reach = since;
  const gaps: [number, number][] = [];
  for (const [s, e] of spans) {
    if (s - reach > gapMs) gaps.push([reach, s]);
    if (e > reach) covered += e - Math.max(s, reach);
    reach = Math.max(reach, e);
  }
  if (until - reach > gapMs && spans.length) gaps.push([reach, until]);
  if (!spans.length && until - since > gapMs) gaps.push([since, until]);
  return {
    captures: spans.length,
    captured_seconds: covered / 1000,
    first: spans.length ? spans[0][0] : null,
    last: spans.length ? Math.max(...spans.map((s) => s[1])) : null,
    gaps,
  };
}

export function bearer(key: string): RequestInit {
  return { headers: { authorization: `Bearer ${key}` } };
}
