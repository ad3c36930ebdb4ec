// Admin commands for the maintenance window.

import { type Command, isoFlag, onlyFlags, UsageError } from "./cli.ts";
import { endMaintenance, startMaintenance } from "./http/maintenance.ts";

export const commands: Command[] = [
  {
    name: "maintenance on",
    usage: "maintenance on [--until ISO]",
    summary: "Start a maintenance window: every /api/ route answers 503 DEGRADED.",
    help: "  --until ISO   when the window ends by itself (a date-time with a time zone, in " +
      "the future);\n                without it, until `maintenance off`.\n" +
      "Every instance on the same database follows within a second.",
    async run(args, ctx) {
      onlyFlags(args, ["until"]);
      const until = isoFlag(args, "until") ?? null;
      if (until && until <= ctx.clock()) throw new UsageError("--until must be in the future");
      await startMaintenance(ctx.db.sql, until);
      ctx.out(`maintenance on${until ? ` until ${until.toISOString()}` : ""}`);
    },
  },
  {
    name: "maintenance off",
    usage: "maintenance off",
    summary: "End the maintenance window now.",
    async run(args, ctx) {
      onlyFlags(args, []);
      await endMaintenance(ctx.db.sql);
      ctx.out("maintenance off");
    },
  },
];
