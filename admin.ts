// `deno task admin <command>`: administration against the configured database.

import {
  asksHelp,
  type Command,
  type CommandContext,
  commandHelp,
  commandList,
  commandsUnder,
  parseArgs,
  UsageError,
} from "./lib/cli.ts";
import { configOrExit } from "./lib/config.ts";
import { openDatabase } from "./lib/server.ts";
import { commands as maintenance } from "./lib/maintenance_commands.ts";
import { commands as billing } from "./lib/forms/billing_commands.ts";
import { adsCommands } from "./lib/ads/commands.ts";

export const commands: Command[] = [...maintenance, ...billing, ...adsCommands];

const PREFIX = "deno task admin";

const USAGE = `usage: ${PREFIX} <command> [--help]\n\ncommands:\n${commandList(commands)}`;

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

/**
 * What argv asks for before any database is opened: help (exit 0, on stdout), a wrong or
 * incomplete command (exit 2, on stderr), or null to run the command.
 */
export function preflight(argv: string[]): { status: 0 | 2; text: string } | null {
  const help = asksHelp(argv);
  const rest = argv.filter((arg, i) =>
    arg !== "--help" && arg !== "-h" && (i > 0 || arg !== "help")
  );
  const found = findCommand(rest);
  if (help && found) return { status: 0, text: commandHelp(PREFIX, found.command) };
  if (found) return null;
  // A group's first words alone ("key", "snapshot"): its commands.
  const first = rest.findIndex((arg) => arg.startsWith("-"));
  const words = (first < 0 ? rest : rest.slice(0, first)).slice(0, 2);
  for (let n = words.length; n > 0; n--) {
    const group = commandsUnder(commands, words.slice(0, n));
    if (group.length) {
      const text = `usage: ${PREFIX} ${words.slice(0, n).join(" ")} ...\n\ncommands:\n` +
        commandList(group);
      return { status: help ? 0 : 2, text };
    }
  }
  const unknown = words.length ? `unknown command: ${words.join(" ")}\n` : "";
  return { status: help && !words.length ? 0 : 2, text: unknown + USAGE };
}

/** Runs one command with the given database; returns the exit status. */
export async function runAdmin(argv: string[], ctx: CommandContext): Promise<number> {
  const early = preflight(argv);
  const found = findCommand(argv);
  if (early || !found) {
    const { status, text } = early ?? { status: 2, text: USAGE };
    (status === 0 ? ctx.out : ctx.err)(text);
    return status;
  }
  try {
    await found.command.run(parseArgs(found.rest), ctx);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.err(`error: ${err.message}\nusage: ${PREFIX} ${found.command.usage}`);
      return 2;
    }
    ctx.err(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

if (import.meta.main) {
  // Help and wrong commands need no configuration or database.
  const early = preflight(Deno.args);
  if (early) {
    (early.status === 0 ? console.log : console.error)(early.text);
    Deno.exit(early.status);
  }
  const config = configOrExit();
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
