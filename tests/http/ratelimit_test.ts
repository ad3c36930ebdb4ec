// The rolling-window limiter: at most `limit` in any window, exact reset and retry times.

import assert from "node:assert/strict";
import { createRateLimiter } from "../../lib/http/ratelimit.ts";
import { test, testClock } from "../_server.ts";

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
