// Admin commands for billing: `billing complete <checkout-id>` settles a manual checkout.

import { completeCheckout } from "./billing.ts";
import { type Command, onlyFlags, UsageError } from "../cli.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const commands: Command[] = [
  {
    name: "billing complete",
    usage: "billing complete <checkout-id>",
    summary: "Settle a manual checkout: its workspace moves to the plan it chose.",
    help: "  <checkout-id>   the UUID POST /api/v1/billing/checkout answered.\n" +
      "Completing one twice says so and changes nothing; a canceled one is an error (exit 1).",
    async run(args, ctx) {
      onlyFlags(args, []);
      if (args.positional.length !== 1) throw new UsageError("give exactly one checkout id");
      const id = args.positional[0];
      if (!UUID.test(id)) throw new UsageError("the checkout id is a UUID");
      const before = await completeCheckout(ctx.db, id.toLowerCase(), ctx.clock());
      if (!before) throw new Error(`no checkout ${id}`);
      const { status, workspace_id, plan, billing_interval } = before;
      if (status === "canceled") throw new Error(`checkout ${id} was canceled; start a new one`);
      ctx.out(
        status === "completed"
          ? `checkout ${id} was already completed; workspace ${workspace_id} is on plan ${plan}`
          : `checkout ${id} completed; workspace ${workspace_id} is now on plan ${plan} ` +
            `(${billing_interval}ly)`,
      );
    },
  },
];
