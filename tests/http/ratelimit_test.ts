// The rolling-window limiters, in memory and in the database (shared by every instance): at
// most `limit` in any window, exact reset and retry times, bounded under a flood of keys; every
// way of counting sharing one budget whatever the scope; and what a per-address limit counts.

import assert from "node:assert/strict";
import {
  addressKey,
  countAhead,
  countInStatement,
  countRequest,
  createRateLimiter,
  deferCount,
  deferredOutcome,
  type SharedCount,
  sharedCount,
} from "../../lib/http/ratelimit.ts";
import { type Db, frag, openDb } from "../../lib/db/db.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { migrations } from "../../sql/migrations.ts";
import { freshDatabase, test, testClock } from "../_server.ts";

test("ratelimit: at most limit requests in any rolling window", () => {
  const clock = testClock();
  clock.set("2026-01-01T00:00:00Z");
  const limiter = createRateLimiter(clock);
  for (let i = 0; i < 3; i++) {
    assert.equal(limiter.hit("k", 3).allowed, true);
    clock.advance(10_000);
  }
  // 30 s after the first: the window still holds 3.
  const refused = limiter.hit("k", 3);
  assert.equal(refused.allowed, false);
  assert.equal(refused.remaining, 0);
  assert.ok(refused.retryAfter >= 29 && refused.retryAfter <= 31, String(refused.retryAfter));
  clock.advance(30_000); // the first request leaves the window
  const again = limiter.hit("k", 3);
  assert.equal(again.allowed, true);
  assert.equal(again.remaining, 0);
  assert.equal(limiter.hit("k", 3).allowed, false);
});

test("ratelimit: keys are independent and refused hits are not counted", () => {
  const clock = testClock();
  const limiter = createRateLimiter(clock);
  assert.equal(limiter.hit("a", 1).allowed, true);
  for (let i = 0; i < 5; i++) assert.equal(limiter.hit("a", 1).allowed, false);
  assert.equal(limiter.hit("b", 1).allowed, true);
  clock.advance(60_000);
  assert.equal(limiter.hit("a", 1).allowed, true);
});

test("ratelimit: remaining counts down and reset is the oldest request plus the window", () => {
  const clock = testClock();
  clock.set("2026-01-01T00:00:00Z");
  const limiter = createRateLimiter(clock);
  const first = limiter.hit("k", 5);
  assert.equal(first.remaining, 4);
  assert.equal(first.resetAt, Date.parse("2026-01-01T00:01:00Z") / 1000);
  clock.advance(1000);
  assert.equal(limiter.hit("k", 5).remaining, 3);
});

test("ratelimit: the seconds to reset never exceed the window, whatever the millisecond", () => {
  const clock = testClock();
  clock.set("2026-01-01T00:00:00.400Z");
  const first = createRateLimiter(clock).hit("k", 5);
  // The epoch second is rounded up (00:01:00.400 -> 00:01:01); the delay is 60 s, not 61.
  assert.equal(first.resetAt, Date.parse("2026-01-01T00:01:01Z") / 1000);
  assert.equal(first.resetIn, 60);
});

test("ratelimit: memory stays bounded under a flood of distinct keys", () => {
  const clock = testClock();
  const limiter = createRateLimiter(clock);
  for (let i = 0; i < 30_000; i++) limiter.hit(`flood-${i}`, 5);
  clock.advance(60_000);
  // Every key of the flood has left the window: the next sweep drops them all.
  for (let i = 0; i < 10_000; i++) limiter.hit(`next-${i % 10}`, 5);
  assert.ok(limiter.size() <= 10, String(limiter.size()));
});

test("ratelimit: an IPv6 client is counted per /64, an IPv4 one per address", () => {
  const cases: [string, string][] = [
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::ffff", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:aaaa::1", "2001:db8:1:2::/64"],
    ["[2001:db8:1:2::9]", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["2001:db8::", "2001:db8:0:0::/64"],
    ["64:ff9b::192.0.2.33", "64:ff9b:0:0::/64"],
  ];
  for (const [address, key] of cases) assert.equal(addressKey(address), key, address);
  // Not an address (a forged X-Forwarded-For): a short key of its own, never the text itself.
  for (const junk of ["not-an-ip", "1:2:3", "2001:db8::1::2", "x".repeat(5000), "1.2.3.4.5"]) {
    assert.match(addressKey(junk), /^other:[0-9a-f]{32}$/, junk.slice(0, 20));
  }
  assert.notEqual(addressKey("2001:db8:1:2::1"), addressKey("2001:db8:1:3::1"));
});

/** A migrated database of its own (PostgreSQL with DATABASE_URL, else PGlite). */
async function limitsDb(upTo = migrations.length) {
  const database = await freshDatabase();
  const db = await openDb({ databaseUrl: database.url, dataDir: "memory://", poolMax: 8 });
  await migrate(db, migrations.slice(0, upTo));
  const hit = (key: string, limit: number, now: number) =>
    sharedCount(db.sql, key, limit, new Date(now));
  return {
    db,
    hit,
    async close() {
      await db.close();
      await database.drop();
    },
  };
}

const T0 = Date.parse("2026-01-01T00:00:00Z");

test("ratelimit (shared): at most limit requests in any rolling window, counted in the database", async () => {
  const limits = await limitsDb();
  try {
    for (let i = 0; i < 3; i++) {
      const accepted = await limits.hit("k", 3, T0 + i * 10_000);
      assert.equal(accepted.allowed, true);
      assert.equal(accepted.remaining, 2 - i);
      assert.equal(accepted.resetAt, (T0 + 60_000) / 1000);
    }
    const refused = await limits.hit("k", 3, T0 + 30_000);
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
    assert.equal(refused.retryAfter, 30);
    // One millisecond before the first leaves the window, still refused; at 60 s exactly, accepted.
    assert.equal((await limits.hit("k", 3, T0 + 59_999)).allowed, false);
    const again = await limits.hit("k", 3, T0 + 60_000);
    assert.equal(again.allowed, true);
    assert.equal(again.remaining, 0);
    assert.equal(again.resetAt, (T0 + 70_000) / 1000, "the oldest counted is now the second");
    assert.equal((await limits.hit("k", 3, T0 + 60_001)).allowed, false, "refused are not counted");
    assert.equal((await limits.hit("other", 3, T0 + 60_001)).allowed, true, "keys are independent");
  } finally {
    await limits.close();
  }
});

test("ratelimit (shared): concurrent requests of one key never pass the limit together", async () => {
  const limits = await limitsDb();
  try {
    const now = T0 + 1000;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => limits.hit("busy", 25, now + (i % 3))),
    );
    assert.equal(results.filter((r) => r.allowed).length, 25);
    const remaining = results.filter((r) => r.allowed).map((r) => r.remaining).sort((a, b) =>
      a - b
    );
    assert.deepEqual(remaining, Array.from({ length: 25 }, (_, i) => i), "each saw the others");
  } finally {
    await limits.close();
  }
});

test("ratelimit (shared): concurrent requests of one key, each window after the last, never pass the limit together", async () => {
  const limits = await limitsDb();
  try {
    // Every round finds the last round's requests out of the window: calls that waited for
    // the key's lock must see the slots as the call before them left them.
    for (let round = 0; round < 5; round++) {
      const now = T0 + round * 60_000;
      const results = await Promise.all(
        Array.from({ length: 30 }, () => limits.hit("rounds", 5, now)),
      );
      const accepted = results.filter((r) => r.allowed).map((r) => r.remaining);
      assert.deepEqual(accepted.sort(), [0, 1, 2, 3, 4], `round ${round}`);
    }
  } finally {
    await limits.close();
  }
});

test("ratelimit (shared): the counts of 1.0's function carry over the upgrade to 005", async () => {
  const limits = await limitsDb(migrations.findIndex((m) => m.name.startsWith("005")));
  try {
    assert.equal((await limits.hit("k", 3, T0)).allowed, true);
    assert.equal((await limits.hit("k", 3, T0 + 10_000)).allowed, true);
    await migrate(limits.db, migrations);
    const third = await limits.hit("k", 3, T0 + 20_000);
    assert.deepEqual([third.allowed, third.remaining, third.resetAt], [
      true,
      0,
      (T0 + 60_000) / 1000,
    ]);
    assert.equal((await limits.hit("k", 3, T0 + 59_999)).allowed, false);
    const later = await limits.hit("k", 3, T0 + 60_000);
    assert.deepEqual([later.allowed, later.resetAt], [true, (T0 + 70_000) / 1000]);
  } finally {
    await limits.close();
  }
});

test("ratelimit (shared): rows stay bounded under a flood of distinct addresses", async () => {
  const limits = await limitsDb();
  try {
    for (let i = 0; i < 300; i++) await limits.hit(`public:198.51.${i >> 8}.${i & 255}`, 5, T0);
    const rows = async () => {
      const [row] = await limits.db.sql<{ keys: number; slots: number }>`
        select (select count(*)::int from rate_limit_keys) as keys,
               (select count(*)::int from rate_limit_slots) as slots`;
      return row;
    };
    assert.deepEqual(await rows(), { keys: 300, slots: 300 });
    // A minute and ten seconds later, one request removes every key of the flood.
    await limits.hit("public:203.0.113.1", 5, T0 + 70_000);
    assert.deepEqual(await rows(), { keys: 1, slots: 1 });
  } finally {
    await limits.close();
  }
});

test("ratelimit (shared): the same answers as the exact in-memory window, whatever the traffic", async () => {
  const limits = await limitsDb();
  try {
    // Bursts and pauses against small and large limits: the key's ring grows, wraps and is
    // renumbered; every answer must be the in-memory limiter's (allowed, remaining, reset).
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const limit of [1, 3, 7, 40]) {
      const clock = testClock();
      clock.set(new Date(T0));
      const memory = createRateLimiter(clock);
      let now = T0;
      for (let i = 0; i < 160; i++) {
        now += random() < 0.15 ? Math.floor(random() * 50_000) : Math.floor(random() * 900);
        clock.set(new Date(now));
        const expected = memory.hit("k", limit);
        const actual = await limits.hit(`ring-${limit}`, limit, now);
        assert.deepEqual(actual, expected, `limit ${limit}, request ${i}`);
      }
    }
  } finally {
    await limits.close();
  }
});

/** What counting reads of the app, with the scope given and a clock of its own. */
function countingApp(db: Db, rateLimitScope: "deployment" | "instance") {
  const clock = testClock();
  clock.set(new Date(T0));
  return { config: { rateLimitScope }, db, clock, limiter: createRateLimiter(clock) };
}

for (const scope of ["deployment", "instance"] as const) {
  test(`ratelimit (${scope}): a key counted in a statement and alone spends one budget`, async () => {
    const limits = await limitsDb();
    try {
      const app = countingApp(limits.db, scope);
      // The statement that finds the caller names the key by its row, as the key lookups do.
      const inStatement = async (id: string) => {
        const count = countInStatement(app, frag`'user:' || u.id`, 3);
        const rows = await limits.db.sql<SharedCount>`
          select u.id ${count.columns}
            from (select ${id}::text as id where ${id}::text <> 'nobody') u ${count.join}`;
        return rows.length ? count.outcome(rows[0]) : null;
      };
      assert.equal(
        await inStatement("nobody"),
        null,
        "a statement that finds nobody counts nothing",
      );
      assert.deepEqual(
        [(await inStatement("a"))!.remaining, (await countRequest(app, "user:a", 3)).remaining],
        [2, 1],
      );
      assert.equal((await inStatement("a"))!.remaining, 0);
      const refused = await countRequest(app, "user:a", 3);
      assert.deepEqual([refused.allowed, refused.retryAfter], [false, 60]);
      assert.equal((await inStatement("a"))!.allowed, false);
      app.clock.advance(60_000);
      assert.equal((await inStatement("a"))!.allowed, true, "the window rolls on");
    } finally {
      await limits.close();
    }
  });
}

test("ratelimit: a statement counted ahead runs only when its count allows it", async () => {
  const limits = await limitsDb();
  try {
    const app = countingApp(limits.db, "deployment");
    const deferred = deferCount(app, "public:203.0.113.9", 1);
    // Deferred only where counting costs a round trip: PostgreSQL with the shared scope.
    assert.equal(deferred !== null, limits.db.kind === "postgres");
    assert.equal(deferCount(countingApp(limits.db, "instance"), "public:x", 1), null);
    const count = deferred ?? { key: "public:203.0.113.9", limit: 1, now: new Date(T0) };
    await limits.db.sql`create table ran (n int)`;
    await limits.db.sql`create function ran_once() returns int language sql
                        as 'insert into ran values (1) returning n'`;
    for (const expected of [true, false]) {
      const [row] = await limits.db.sql<SharedCount & { n: number | null }>`
        ${countAhead(count, frag`select ran_once() as n`)}`;
      assert.equal(deferredOutcome(count, row).allowed, expected);
      assert.equal(row.n, expected ? 1 : null);
    }
    const [{ n }] = await limits.db.sql<{ n: number }>`select count(*)::int as n from ran`;
    assert.equal(n, 1, "the refused statement wrote nothing");
  } finally {
    await limits.close();
  }
});
