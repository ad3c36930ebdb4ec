// The speed of the machine a bench runs on, as two fixed workloads printed beside its figures: the
// same build measured on the development machines of two days differed by 2-3x (2026-11-24 and
// 11-25), and only a reference measured in the same run tells a slower machine from a slower build.

import type postgres from "postgres";

/** The fastest of seven runs, in milliseconds: the others met a busier machine. */
async function bestOfSeven(run: () => unknown): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    await run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** One line: both references, to compare runs on different machines. */
export async function machineLine(sql: postgres.Sql): Promise<string> {
  // JSON text of 2,000 small objects parsed and written 100 times.
  const text = JSON.stringify(
    Array.from({ length: 2000 }, (_, i) => ({ id: `brand-${i}`, n: i * 7, name: `Brand ${i}` })),
  );
  const js = await bestOfSeven(() => {
    let length = 0;
    for (let i = 0; i < 100; i++) length += JSON.stringify(JSON.parse(text)).length;
    if (length !== text.length * 100) throw new Error("JSON round trip changed the text");
  });
  // A PL/pgSQL loop of 2,000,000 additions: CPU alone, no disk, no table.
  const pg = await bestOfSeven(() =>
    sql`do $$ declare s int8 := 0; begin for i in 1..2000000 loop s := s + i; end loop; end $$`
  );
  return `machine reference (lower is faster; compare runs only with similar figures): ` +
    `JavaScript ${js.toFixed(0)} ms, PostgreSQL ${pg.toFixed(0)} ms`;
}
