// `deno task admin <command>`: administration against the configured database.

import { type Command, type CommandContext, parseArgs, UsageError } from "./lib/cli.ts";
import { configOrExit } from "./lib/config.ts";
import { openDatabase } from "./lib/server.ts";
import { commands as maintenance } from "./lib/maintenance_commands.ts";
import { commands as billing } from "./lib/forms/billing_commands.ts";
import { adsCommands } from "./lib/ads/commands.ts";

const commands: Command[] = [...maintenance, ...billing, ...adsCommands];

const USAGE = `usage: deno task admin <command>\n${commands.map((c) => "  " + c.usage).join("\n")}`;

/** Finds the command whose words start argv; the rest are its arguments. */
function findCommand(argv: string[]): { command: Command; rest: string[] } | null {
  const sorted = [...commands].sort((a, b) => b.name.split(" ").length - a.name.split(" ").length);
  for (const command of sorted) {
    const words = command.name.split(" ");
    if (words.every((word, i) => argv[i] === word)) {
      return { command, rest: argv.slice(words.length) };
    }
  }
  return null;
}

/** Runs one command with the given database; returns the exit status. */
export async function runAdmin(argv: string[], ctx: CommandContext): Promise<number> {
  const found = findCommand(argv);
  if (!found) {
    ctx.err(USAGE);
    return 2;
  }
  try {
    await found.command.run(parseArgs(found.rest), ctx);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.err(`error: ${err.message}\nusage: deno task admin ${found.command.usage}`);
      return 2;
    }
    ctx.err(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

if (import.meta.main) {
  const config = configOrExit();
  if (!findCommand(Deno.args)) {
    console.error(USAGE);
    Deno.exit(2);
  }
  let db;
  try {
    db = await openDatabase(config);
  } catch (err) {
    console.error(`error: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
    Deno.exit(1);
  }
  const status = await runAdmin(Deno.args, {
    db,
    config,
    clock: () => new Date(),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  await db.close();
  Deno.exit(status);
}
