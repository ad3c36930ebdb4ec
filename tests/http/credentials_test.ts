// Credentials (lib/http/credentials.ts): how a secret is made and stored, one stored form for
// ads API keys and forms tokens, and a token stored in the form before 012 still working after.

import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config.ts";
import { openDb } from "../../lib/db/db.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { hex, sha256Hex } from "../../lib/encoding.ts";
import { newSecret, secretDigest } from "../../lib/http/credentials.ts";
import { startService } from "../../lib/server.ts";
import { migrations } from "../../sql/migrations.ts";
import { freshDatabase, startTestService, test } from "../_server.ts";

test("credentials: a new secret is its prefix and 32 random bytes in base64url", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 100; i++) {
    const secret = newSecret("onda_x_");
    assert.match(secret, /^onda_x_[A-Za-z0-9_-]{43}$/);
    seen.add(secret);
  }
  assert.equal(seen.size, 100, "never the same twice");
});

test("credentials: the stored digest is the SHA-256 of the secret, 32 bytes", () => {
  const digest = secretDigest("onda_pat_example");
  assert.equal(digest.length, 32);
  assert.equal(hex(digest), sha256Hex("onda_pat_example"));
});

test("credentials: ads keys and forms tokens keep their digest alike, as unique bytea", async () => {
  const service = await startTestService();
  try {
    const columns = await service.db.sql<{ table_name: string; data_type: string }>`
      select table_name, data_type from information_schema.columns
       where column_name = 'digest' and table_name in ('ads_api_keys', 'auth_tokens')
       order by table_name`;
    assert.deepEqual(columns.map((c) => [c.table_name, c.data_type]), [
      ["ads_api_keys", "bytea"],
      ["auth_tokens", "bytea"],
    ]);
    const unique = await service.db.sql<{ table_name: string }>`
      select tc.table_name from information_schema.table_constraints tc
        join information_schema.constraint_column_usage cu
          on cu.constraint_name = tc.constraint_name and cu.table_name = tc.table_name
       where tc.constraint_type = 'UNIQUE' and cu.column_name = 'digest'
         and tc.table_name in ('ads_api_keys', 'auth_tokens')
       order by tc.table_name`;
    assert.deepEqual(unique.map((u) => u.table_name), ["ads_api_keys", "auth_tokens"]);
  } finally {
    await service.close();
  }
});

test("credentials: a token and a key issued before 012 still authenticate after it", async () => {
  const database = await freshDatabase();
  const db = await openDb({ databaseUrl: database.url, dataDir: "memory://", poolMax: 4 });
  let stop = () => db.close();
  try {
    const before = migrations.findIndex((m) => m.name.startsWith("012_"));
    assert.ok(before > 0, "012 is a migration");
    await migrate(db, migrations.slice(0, before));
    // As the code before 012 stored them: a token's digest as hex text, a key's as bytea.
    const token = newSecret("onda_pat_");
    const [user] = await db.sql<{ id: string }>`
      insert into users (email, name, password_hash)
      values ('before@example.com', 'Before', 'pbkdf2-sha256$1$AA==$AA==') returning id`;
    const [workspace] = await db.sql<{ id: string }>`
      insert into workspaces (name, signing_secret) values ('Before', 'whsec_before')
      returning id`;
    await db.sql`insert into memberships (workspace_id, user_id, role)
                 values (${workspace.id}, ${user.id}, 'owner')`;
    await db.sql`insert into auth_tokens (user_id, kind, name, digest)
                 values (${user.id}, 'api', 'old', ${sha256Hex(token)})`;
    const key = newSecret("onda_ads_");
    await db.sql`insert into ads_accounts (id, name) values ('before', 'Before')`;
    await db.sql`insert into ads_api_keys (account_id, digest, prefix, permissions)
                 values ('before', decode(${sha256Hex(key)}, 'hex'), ${key.slice(0, 13)},
                         '{ads:read}')`;
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: database.url ?? undefined,
    });
    const service = await startService({ config, db, log: () => {}, startWorkers: false });
    stop = () => service.shutdown();
    const workspaceRes = await fetch(`${service.url}/api/v1/workspace`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(30_000),
    });
    assert.equal(workspaceRes.status, 200, await workspaceRes.text());
    const whoami = await fetch(`${service.url}/api/v1/whoami`, {
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(30_000),
    });
    assert.equal(whoami.status, 200, await whoami.text());
    const wrong = await fetch(`${service.url}/api/v1/workspace`, {
      headers: { authorization: `Bearer ${newSecret("onda_pat_")}` },
      signal: AbortSignal.timeout(30_000),
    });
    assert.equal(wrong.status, 401, "another token is still refused");
    await wrong.body?.cancel();
  } finally {
    await stop();
    await database.drop();
  }
});
