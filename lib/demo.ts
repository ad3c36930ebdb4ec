// `deno task demo`: loads a realistic demo data set through the real code paths (the ads
// import and admin commands, the forms HTTP API) so the README's examples work as written.
// Safe to run again: what exists is kept, and only a fresh ads API key is made each time.

import { runAdmin } from "../admin.ts";
import { importSnapshot } from "./ads/import.ts";
import type { CommandContext } from "./cli.ts";
import type { Config } from "./config.ts";
import type { Db } from "./db/db.ts";
import { startService } from "./server.ts";

export const DEMO_ACCOUNT = "demo";
const DEMO_SNAPSHOT = "onda-demo";
export const DEMO_EMAIL = "demo@onda.example";
export const DEMO_PASSWORD = "onda-demo-password";
export const DEMO_SLUG = "radio-listeners";

const STATIONS = [
  ["radio-lisboa", "Rádio Lisboa 98.2"],
  ["porto-beat", "Porto Beat FM"],
  ["tv-norte", "TV Norte"],
  ["sul-news", "Sul News 24"],
] as const;

const BRANDS = [
  ["farol-bank", "Farol Bank"],
  ["verde-market", "Verde Market"],
  ["vela-air", "Vela Airlines"],
  ["lumen-energy", "Lumen Energy"],
  ["pedra-mobile", "Pedra Mobile"],
  ["correia-motors", "Correia Motors"],
] as const;

/** The brand the demo account is not granted, so the scope rule is visible in the data. */
const UNGRANTED_BRAND = "correia-motors";
const DAYS = 28;

const DEMO_QUESTIONS = [
  { title: "What do you like most about our morning show?", type: "text" },
  { title: "Where can we send the prize draw result?", type: "email" },
  { title: "How many hours a day do you listen?", type: "number", required: false },
  {
    title: "Where do you listen most?",
    type: "choice",
    options: ["In the car", "At home", "At work", "On the phone app"],
  },
  { title: "How would you rate our ad breaks?", type: "rating" },
];

/** Mulberry32, a small seeded generator: every demo (and bench) data set is the same. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuidFrom(next: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = "4";
  hex[16] = "89ab"[Math.floor(next() * 4)];
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const ndjson = (record: object) => JSON.stringify(record) + "\n";

/**
 * The demo snapshot as NDJSON lines: stations, brands, four weeks of ad occurrences (mostly
 * confirmed, some pending or rejected) up to `end`, and hourly captures with a few gaps.
 */
function* demoSnapshotLines(end: Date): Generator<string> {
  const next = seeded(20261122);
  const dayMs = 86_400_000;
  const lastDay = Math.floor(end.getTime() / dayMs) * dayMs;
  const firstDay = lastDay - (DAYS - 1) * dayMs;
  yield ndjson({ type: "snapshot", id: DEMO_SNAPSHOT, exported_at: end.toISOString() });
  for (const [id, name] of STATIONS) yield ndjson({ type: "station", id, name });
  for (const [id, name] of BRANDS) yield ndjson({ type: "brand", id, name });
  for (const [station] of STATIONS) {
    for (let day = firstDay; day <= lastDay; day += dayMs) {
      for (let hour = 6; hour < 24; hour++) {
        const hourStart = day + hour * 3_600_000;
        if (hourStart + 3_600_000 > end.getTime()) break;
        // A capture per hour, except the odd hour the recorder was down.
        if (next() > 0.04) {
          yield ndjson({
            type: "capture",
            id: `${station}-${new Date(hourStart).toISOString().slice(0, 13)}`,
            station_id: station,
            started_at: new Date(hourStart).toISOString(),
            ended_at: new Date(hourStart + 3_600_000).toISOString(),
          });
        }
        const breaks = 1 + Math.floor(next() * 3);
        for (let b = 0; b < breaks; b++) {
          const start = hourStart + Math.floor(next() * 3_300) * 1000;
          const seconds = [15, 20, 30, 30, 45, 60][Math.floor(next() * 6)];
          const brand = BRANDS[Math.floor(next() * BRANDS.length)][0];
          const second = BRANDS[Math.floor(next() * BRANDS.length)][0];
          const roll = next();
          yield ndjson({
            type: "occurrence",
            id: uuidFrom(next),
            station_id: station,
            ad_started_at: new Date(start).toISOString(),
            ad_ended_at: new Date(start + seconds * 1000).toISOString(),
            duration_precision: roll < 0.5
              ? "detected"
              : roll < 0.8
              ? "human_confirmed"
              : "estimated",
            review_state: roll < 0.88 ? "confirmed" : roll < 0.96 ? "pending" : "rejected",
            brand_ids: next() < 0.1 && second !== brand ? [brand, second] : [brand],
          });
        }
      }
    }
  }
}

async function admin(argv: string[], ctx: CommandContext): Promise<string[]> {
  const out: string[] = [];
  const status = await runAdmin(argv, { ...ctx, out: (line) => out.push(line) });
  if (status !== 0) throw new Error(`demo: admin ${argv.slice(0, 2).join(" ")} failed`);
  return out;
}

/** The ads data and a new key; `fresh` when some of the data was added. */
async function loadAds(ctx: CommandContext): Promise<{ key: string; fresh: boolean }> {
  const { db, clock } = ctx;
  const now = clock();
  const [has] = await db.sql<{ snapshot: boolean; account: boolean; granted: boolean }>`
    select exists(select 1 from ads_snapshots where id = ${DEMO_SNAPSHOT}) as snapshot,
           exists(select 1 from ads_accounts where id = ${DEMO_ACCOUNT}) as account,
           exists(select 1 from ads_grants where account_id = ${DEMO_ACCOUNT}) as granted`;
  if (!has.snapshot) {
    const lines = ReadableStream.from(demoSnapshotLines(now)).pipeThrough(new TextEncoderStream());
    const result = await importSnapshot(db, lines, { approve: true, progress: ctx.err });
    ctx.err(
      `demo: imported ${result.occurrences} occurrences and ${result.captures} captures ` +
        `(snapshot ${result.snapshotId}, approved)`,
    );
  }
  if (!has.account) {
    await admin(["account", "create", DEMO_ACCOUNT, "--name", "Demo Media Agency"], ctx);
  }
  // Decided by the grant itself, not the account: a run that stopped between the two left the
  // account without one, and the demo key would see nothing.
  if (!has.granted) {
    const from = new Date(Math.floor(now.getTime() / 86_400_000 - DAYS - 7) * 86_400_000);
    const until = new Date(from.getTime() + 400 * 86_400_000);
    const stations = STATIONS.map(([id]) => id).join(",");
    const brands = BRANDS.map(([id]) => id).filter((id) => id !== UNGRANTED_BRAND).join(",");
    const period = ["--from", from.toISOString(), "--until", until.toISOString()];
    await admin(
      ["grant", DEMO_ACCOUNT, "--stations", stations, "--brands", brands, ...period],
      ctx,
    );
  }
  // A new key each run: keys are shown once and only their digest is stored.
  const flags = ["--permissions", "ads:read,reports:read,coverage:read", "--label", "demo"];
  const out = await admin(["key", "create", DEMO_ACCOUNT, ...flags], ctx);
  return { key: out[out.length - 1], fresh: !has.snapshot || !has.granted };
}

/** The forms data; true when some of it was added. */
async function loadForms(db: Db, config: Config, err: (line: string) => void): Promise<boolean> {
  // The forms data goes through the real HTTP API of an in-process instance on a loopback
  // port, so it obeys every rule a user's requests obey. Shutting it down closes the db.
  const service = await startService({
    config: { ...config, port: 0, host: "127.0.0.1" },
    db,
    log: () => {},
    startWorkers: false,
  });
  const call = async (path: string, init: RequestInit = {}, cookie?: string) => {
    const headers = new Headers(init.headers);
    if (init.body) headers.set("content-type", "application/json");
    if (cookie) headers.set("cookie", cookie);
    const res = await fetch(service.url + path, { ...init, headers });
    const text = await res.text();
    return { status: res.status, headers: res.headers, data: text ? JSON.parse(text) : null };
  };
  try {
    const credentials = JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD });
    let signedIn = await call("/api/v1/auth/register", {
      method: "POST",
      body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD, name: "Demo User" }),
    });
    const newUser = signedIn.status === 201;
    if (!newUser) {
      signedIn = await call("/api/v1/auth/login", { method: "POST", body: credentials });
    }
    if (signedIn.status !== 200 && signedIn.status !== 201) {
      throw new Error(`demo: cannot sign in as ${DEMO_EMAIL} (${signedIn.status})`);
    }
    const cookie = /service_token=[^;]+/.exec(signedIn.headers.get("set-cookie") ?? "")![0];

    const published = await call(`/api/v1/public/q/${DEMO_SLUG}`);
    if (published.status === 200) return newUser;
    let id: string | undefined;
    const created = await call("/api/v1/questionnaires", {
      method: "POST",
      body: JSON.stringify({
        title: "Radio listeners' survey",
        slug: DEMO_SLUG,
        questions: DEMO_QUESTIONS,
      }),
    }, cookie);
    if (created.status === 201) id = created.data.id;
    else {
      // Left as a draft by an interrupted run: find it and publish it.
      const [row] = await db.sql<{ id: string }>`
        select id from questionnaires where slug = ${DEMO_SLUG} and state = 'draft'`;
      id = row?.id;
    }
    if (!id) throw new Error(`demo: the slug ${DEMO_SLUG} is taken by another questionnaire`);
    const publish = await call(`/api/v1/questionnaires/${id}/publish`, { method: "POST" }, cookie);
    if (publish.status !== 200) throw new Error(`demo: publishing failed (${publish.status})`);

    // A few visitors' sessions, so that exports and webhooks have something to show.
    const form = (await call(`/api/v1/public/q/${DEMO_SLUG}`)).data;
    const next = seeded(7);
    const names = ["Ana Silva", "Rui Costa", "Marta Pires", "João Neves", "Inês Rocha"];
    for (const [i, name] of names.entries()) {
      const session = await call(`/api/v1/public/q/${DEMO_SLUG}/sessions`, {
        method: "POST",
        body: JSON.stringify({
          name,
          email: `listener${i + 1}@example.com`,
          loaded_at: Date.now(),
        }),
      });
      for (const question of form.questions) {
        const answerText = question.type === "text"
          ? ["The traffic news", "The music, mostly", "Short ad breaks, please"][i % 3]
          : question.type === "email"
          ? `listener${i + 1}@example.com`
          : question.type === "number"
          ? String(1 + Math.floor(next() * 6))
          : question.type === "choice"
          ? question.options[Math.floor(next() * question.options.length)]
          : String(2 + Math.floor(next() * 4));
        await call(`/api/v1/public/q/${DEMO_SLUG}/sessions/${session.data.sessionId}/answers`, {
          method: "POST",
          body: JSON.stringify({ questionId: question.id, answerText }),
        });
      }
    }
    err(`demo: published questionnaire ${DEMO_SLUG} with ${names.length} sample sessions`);
    return true;
  } finally {
    await service.shutdown();
  }
}

/**
 * Loads the demo data into `db` (and closes it: the forms part ends the in-process server):
 * the new ads API key, and whether this run added anything.
 */
export async function loadDemo(db: Db, config: Config, err: (line: string) => void) {
  const ctx: CommandContext = { db, config, clock: () => new Date(), out: () => {}, err };
  const { key, fresh } = await loadAds(ctx);
  return { key, fresh: await loadForms(db, config, err) || fresh };
}
