-- 015_event_feed: the events feed (GET /api/v1/events) and the retention of events,
-- deliveries and attempts.
--
-- Each outbox event takes a feed position when the delivery worker fans it out, in fan-outs
-- that take turns on the one row of event_positions, so that positions follow commit order
-- (why: lib/webhooks/feed.ts). Retention removes the oldest events in small batches and
-- records in event_retention how far it went, so that a cursor from before answers 410.

alter table outbox_events
  add column feed_position bigint,
  -- When it took its position: just after its commit, never before the position before it.
  -- The feed's since/until filter on it and the retention counts from it.
  add column feed_at timestamptz;

-- Events fanned out before this migration take positions in the order they were fanned out.
update outbox_events e set feed_position = o.n, feed_at = e.dispatched_at
from (select id, row_number() over (order by dispatched_at, created_at, id) as n
      from outbox_events where dispatched_at is not null) o
where e.id = o.id;

-- A workspace's feed in order.
create index outbox_events_feed_idx on outbox_events (workspace_id, feed_position)
  where feed_position is not null;
-- The oldest numbered events first, for the retention.
create index outbox_events_retention_idx on outbox_events (feed_at)
  where feed_position is not null;
create index webhook_deliveries_retention_idx on webhook_deliveries (created_at);

-- The last position handed out and its time. A fan-out holds this row locked from its start
-- to its commit.
create table event_positions (
  only_row boolean primary key default true check (only_row),
  last bigint not null,
  last_at timestamptz not null
);
insert into event_positions (last, last_at)
select coalesce(max(feed_position), 0), coalesce(max(feed_at), '-infinity') from outbox_events;

-- Every event at or below pruned_through may have been removed by the retention; through_at is
-- the feed time of that event.
create table event_retention (
  only_row boolean primary key default true check (only_row),
  pruned_through bigint not null default 0,
  through_at timestamptz
);
insert into event_retention default values;
