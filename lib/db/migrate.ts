// Applies the numbered migrations in order, each in its own transaction, under an advisory
// lock so that instances starting together apply each one exactly once.

import type { Db } from "./db.ts";
import { sha256Hex } from "../encoding.ts";

/** Arbitrary constant shared by every Onda instance: the key of the migration lock. */
const MIGRATION_LOCK = 4_207_311_001;

function versionOf(name: string): number {
  const match = /^(\d{3})_[a-z0-9_]+\.sql$/.exec(name);
  if (!match) throw new Error(`migration ${name} is not named NNN_name.sql`);
  return Number(match[1]);
}

/** Returns the names applied by this call. Throws on a gap, an edited or an unknown migration. */
export async function migrate(
  db: Db,
  migrations: { name: string; text: string }[],
): Promise<string[]> {
  migrations.forEach((m, i) => {
    if (versionOf(m.name) !== i + 1) {
      throw new Error(`migration ${m.name} is out of sequence: expected number ${i + 1}`);
    }
  });
  const checksums = migrations.map((m) => sha256Hex(m.text));
  const applied: string[] = [];
  for (const [i, migration] of migrations.entries()) {
    // The recorded state is read again under the lock in every transaction, so a concurrent
    // instance that applied this migration meanwhile is seen and nothing runs twice.
    const ran = await db.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      await tx`create table if not exists schema_migrations (
        version integer primary key,
        name text not null,
        checksum text not null,
        applied_at timestamptz not null default now()
      )`;
      const rows = await tx<{ version: number; name: string; checksum: string }>`
        select version, name, checksum from schema_migrations order by version`;
      for (const row of rows) {
        const known = migrations[row.version - 1];
        if (!known) {
          throw new Error(`database has migration ${row.name}, unknown to this build; refusing`);
        }
        if (known.name !== row.name || checksums[row.version - 1] !== row.checksum) {
          throw new Error(`migration ${known.name} was edited after it was applied; refusing`);
        }
      }
      if (rows.some((row) => row.version === i + 1)) return false;
      await tx.exec(migration.text);
      await tx`insert into schema_migrations (version, name, checksum)
               values (${i + 1}, ${migration.name}, ${checksums[i]})`;
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
