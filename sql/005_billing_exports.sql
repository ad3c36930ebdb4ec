-- 005_billing_exports: billing checkouts (payment provider behind lib/forms/billing.ts) and data
-- exports of questionnaire answers (streamed at download time by lib/forms/export.ts).

create table billing_checkouts (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  created_by uuid references users(id) on delete set null,
  plan text not null check (plan in ('pro', 'business')),
  billing_interval text not null check (billing_interval in ('month', 'year')),
  -- Which payment provider handles it, and its own reference for the payment.
  provider text not null,
  provider_ref text,
  -- Where the customer pays, as the provider answered it.
  checkout_url text not null,
  status text not null default 'pending' check (status in ('pending', 'completed', 'canceled')),
  created_at timestamptz not null,
  completed_at timestamptz
);
create index billing_checkouts_workspace_idx on billing_checkouts (workspace_id, created_at desc);

create table exports (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  questionnaire_id uuid not null references questionnaires(id) on delete cascade,
  created_by uuid references users(id) on delete set null,
  format text not null check (format in ('csv', 'ndjson')),
  -- The export holds the data as of this moment: sessions started and answers given later
  -- are left out, so every download of one export gives the same rows.
  as_of timestamptz not null,
  created_at timestamptz not null
);
create index exports_workspace_idx on exports (workspace_id, created_at desc);

-- The export reads a questionnaire's sessions in id order, in batches (keyset).
create index sessions_export_idx on sessions (questionnaire_id, id);

-- One CSV field (RFC 4180): a value a spreadsheet would run as a formula (it starts with
-- = + - @, tab or carriage return) gets a leading ' (CSV injection), and a value holding a
-- quote, comma or line break is quoted with its quotes doubled (an unquoted value has no
-- quote to double). Exports build their rows in SQL with it, so the service streams finished
-- text instead of millions of row objects. One expression without FROM and not STRICT, so
-- the planner inlines it into the export query.
create function onda_csv_field(value text) returns text
language sql immutable parallel safe as $$
  select case when value = translate(value, E'",\r\n', '') then '' else '"' end
    || case when left(value, 1) in ('=', '+', '-', '@', E'\t', E'\r') then '''' else '' end
    || replace(value, '"', '""')
    || case when value = translate(value, E'",\r\n', '') then '' else '"' end
$$;
