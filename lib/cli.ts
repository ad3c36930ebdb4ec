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
  run(args: Args, ctx: CommandContext): Promise<void>;
}

/** Thrown for a wrong invocation; admin.ts prints the message and exits 2. */
export class UsageError extends Error {}

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
    if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) flags[arg.slice(2)] = argv[++i];
    else flags[arg.slice(2)] = true;
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
