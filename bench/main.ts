// `deno task bench <name>`: runs bench/<name>.ts, which prints its figures.
const BENCHES = [
  "ads",
  "ads_start",
  "forms",
  "webhooks",
  "export",
  "startup",
  "campaign",
  "bots",
  "responses",
];

const name = Deno.args[0];
if (!name || !BENCHES.includes(name)) {
  console.error(`usage: deno task bench <${BENCHES.join("|")}> [options]`);
  Deno.exit(2);
}
const module = await import(`./${name}.ts`);
await module.run(Deno.args.slice(1));
