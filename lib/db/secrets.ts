// The service's HMAC key: SECRET_KEY when set, else one generated on first start and kept in
// the database so that every instance signs and verifies with the same key.

import type { Sql } from "./db.ts";
import { base64 } from "../encoding.ts";

export async function loadSecretKey(sql: Sql, configured: string | null): Promise<string> {
  if (configured) return configured;
  const fresh = base64(crypto.getRandomValues(new Uint8Array(32)));
  await sql`insert into service_secrets (name, value) values ('secret_key', ${fresh})
            on conflict (name) do nothing`;
  const [row] = await sql<{ value: string }>`
    select value from service_secrets where name = 'secret_key'`;
  return row.value;
}
