// The admin command line's shape: commands as a table, arguments parsed the same way for all.

import type { Config } from "./config.ts";
import type { Db } from "./db/db.ts";

export interface CommandContext {
  db: Db;
  config: Config;
  clock: () => Date;
  /** Result lines, to stdout (a created key is printed alone on the last one). */
  out(line: string): void;
  /** Progress and diagnostics, to stderr. */
  err(line: string): void;
}

export interface Args {
  positional: string[];
  flags: Record<string, string | true>;
}

export interface Command {
  /** The words that select it, e.g. "maintenance on". */
  name: string;
  usage: string;
  /** What it does, in one line (the command list shows it). */
  summary: string;
  /** What `--help` shows below the usage and summary: arguments, options, effects. */
  help?: string;
  run(args: Args, ctx: CommandContext): Promise<void>;
}

/** Asks for help: `--help` or `-h` anywhere, or the word `help` first. */
export function asksHelp(argv: string[]): boolean {
  return argv.includes("--help") || argv.includes("-h") || argv[0] === "help";
}

/** The commands whose names start with these words ("key" lists key create, list, revoke). */
export function commandsUnder(commands: Command[], words: string[]): Command[] {
  return commands.filter((command) => {
    const name = command.name.split(" ");
    return words.length <= name.length && words.every((word, i) => name[i] === word);
  });
}

/** A list of commands, each with its usage and summary. */
export function commandList(commands: Command[]): string {
  return commands.map((c) => `  ${c.usage}\n      ${c.summary}`).join("\n");
}

/** The help of one command: usage, summary, then its details. */
export function commandHelp(prefix: string, command: Command): string {
  return [`usage: ${prefix} ${command.usage}`, "", command.summary, command.help ?? ""]
    .join("\n").trimEnd();
}

/** Prints `value` as one JSON document (`--json`): dates as ISO 8601 strings. */
export function printJson(ctx: CommandContext, value: unknown) {
  ctx.out(JSON.stringify(value, null, 2));
}

/** A list's answer: one JSON array with `--json`, else a tab-separated line per row. */
export function printRows<T>(
  ctx: CommandContext,
  json: boolean,
  rows: T[],
  line: (row: T) => unknown[],
) {
  if (json) return printJson(ctx, rows);
  for (const row of rows) ctx.out(line(row).join("\t"));
}

/** Refuses arguments where a command takes none. */
export function noArguments(args: Args, command: string) {
  if (args.positional.length) throw new UsageError(`${command} takes no argument`);
}

/** Whether `--json` was given (it takes no value). */
export function wantsJson(args: Args): boolean {
  const value = args.flags.json;
  if (value !== undefined && value !== true) throw new UsageError("--json takes no value");
  return value === true;
}

/** Thrown for a wrong invocation; admin.ts prints the message and exits 2. */
export class UsageError extends Error {}

/** Flags that never take a value, so in `key list --json acme` acme stays an argument. */
const SWITCHES = ["json", "approve", "help"];

/** `--name value` and `--name=value` flags; `--name` alone is true. */
export function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (eq > 0) flags[name] = arg.slice(eq + 1);
    else if (SWITCHES.includes(name)) flags[name] = true;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) flags[name] = argv[++i];
    else flags[name] = true;
  }
  return { positional, flags };
}

/** A flag's string value, or an error naming it. */
export function flag(args: Args, name: string, required: true): string;
export function flag(args: Args, name: string, required?: false): string | undefined;
export function flag(args: Args, name: string, required = false): string | undefined {
  const value = args.flags[name];
  if (value === undefined) {
    if (required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}

/** Refuses flags the command does not know, so a typo never silently does something else. */
export function onlyFlags(args: Args, known: string[]) {
  for (const name of Object.keys(args.flags)) {
    if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
  }
}

export function isoFlag(args: Args, name: string): Date | undefined {
  const raw = flag(args, name);
  if (raw === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw)) {
    throw new UsageError(`--${name} must be an ISO 8601 date-time with a time zone`);
  }
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--${name} is not a real date-time`);
  return date;
}
