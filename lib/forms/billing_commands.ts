// Admin commands for billing: `billing complete <checkout-id>` settles a manual checkout.

import { completeCheckout } from "./billing.ts";
import { type Command, onlyFlags, UsageError } from "../cli.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const commands: Command[] = [
  {
    name: "billing complete",
    usage: "billing complete <checkout-id>",
    async run(args, ctx) {
      onlyFlags(args, []);
      if (args.positional.length !== 1) throw new UsageError("give exactly one checkout id");
      const id = args.positional[0];
      if (!UUID.test(id)) throw new UsageError("the checkout id is a UUID");
      const result = await completeCheckout(ctx.db, id.toLowerCase(), ctx.clock());
      switch (result.outcome) {
        case "not_found":
          throw new Error(`no checkout ${id}`);
        case "canceled":
          throw new Error(`checkout ${id} was canceled; start a new one`);
        case "already_completed":
          ctx.out(
            `checkout ${id} was already completed; workspace ${result.checkout.workspace_id} ` +
              `is on plan ${result.checkout.plan}`,
          );
          return;
        case "completed":
          ctx.out(
            `checkout ${id} completed; workspace ${result.checkout.workspace_id} is now on ` +
              `plan ${result.checkout.plan} (${result.checkout.billing_interval}ly)`,
          );
      }
    },
  },
];
