// Test helpers for GET /api/v1/events: a page, paging to the end, and waiting for the worker to
// number a workspace's events.

import assert from "node:assert/strict";
import type { TestService } from "../_server.ts";
import type { TestUser } from "../forms/_forms.ts";

export interface FeedEvent {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  // deno-lint-ignore no-explicit-any
  data: any;
}

export interface FeedPage {
  data: FeedEvent[];
  next_cursor: string;
  has_more: boolean;
}

/** GET /api/v1/events?<query> as `user`; asserts 200. */
export async function eventsPage(
  service: TestService,
  user: TestUser,
  query = "",
): Promise<FeedPage & { text: string }> {
  const res = await service.fetch(`/api/v1/events?${query}`, { headers: user.headers() });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return { ...JSON.parse(text), text };
}

/** Pages from `cursor` (or the start) until has_more is false. */
export async function readToEnd(
  service: TestService,
  user: TestUser,
  query = "",
  cursor?: string,
): Promise<{ events: FeedEvent[]; cursor: string }> {
  const events: FeedEvent[] = [];
  for (;;) {
    const at = cursor === undefined ? "" : `cursor=${encodeURIComponent(cursor)}`;
    const page = await eventsPage(service, user, [query, at].filter(Boolean).join("&"));
    events.push(...page.data);
    cursor = page.next_cursor;
    if (!page.has_more) return { events, cursor };
  }
}

/** Waits until the worker has given every event of the workspace its feed position. */
export async function numbered(service: TestService, workspaceId: string, timeoutMs = 10_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const [row] = await service.db.sql<{ n: number }>`
      select count(*)::int as n from outbox_events
      where workspace_id = ${workspaceId} and feed_position is null`;
    if (row.n === 0) return;
    if (performance.now() > deadline) throw new Error(`${row.n} events still not numbered`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The workspace's event ids in the outbox, sorted. */
export async function outboxIds(service: TestService, workspaceId: string): Promise<string[]> {
  const rows = await service.db.sql<{ id: string }>`
    select id from outbox_events where workspace_id = ${workspaceId} order by id`;
  return rows.map((r) => r.id);
}
