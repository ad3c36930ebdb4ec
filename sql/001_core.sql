-- Service-wide state shared by every instance on one database.

-- Single-row table: the maintenance window switched by `admin maintenance on|off`.
create table maintenance_window (
  singleton boolean primary key default true check (singleton),
  started_at timestamptz not null default now(),
  until timestamptz
);

-- Generated secrets that every instance must agree on (e.g. the cursor HMAC key when
-- SECRET_KEY is unset). Created once; never rotated silently.
create table service_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);
