// Billing checkouts: the payment provider interface, the built-in manual provider, and the
// one place that completes a checkout and switches the workspace's plan.

import { type Db, frag, type Sql } from "../db/db.ts";

export const PAID_PLANS = ["pro", "business"] as const;
export const BILLING_INTERVALS = ["month", "year"] as const;

/**
 * What a payment provider must do: start a payment for a pending checkout and say where the
 * customer goes to pay. Completion reaches the service through `completeCheckout` (a provider
 * webhook, or for the manual provider the admin command).
 */
export interface PaymentProvider {
  readonly name: string;
  startCheckout(checkout: {
    id: string;
    workspaceId: string;
    plan: typeof PAID_PLANS[number];
    interval: typeof BILLING_INTERVALS[number];
  }): Promise<{ url: string; reference: string | null }>;
}

/**
 * The provider checkouts go to. Only the manual one is built in: nothing is charged online, the
 * checkout URL is the checkout's own status resource, and the operator settles the payment out
 * of band and runs `deno task admin billing complete <id>`. A hosted provider (Stripe, Paddle,
 * ...) is another implementation of PaymentProvider chosen here.
 */
export function paymentProvider(config: { publicBaseUrl: string }): PaymentProvider {
  return {
    name: "manual",
    startCheckout: (checkout) =>
      Promise.resolve({
        url: `${config.publicBaseUrl}/api/v1/billing/checkouts/${checkout.id}`,
        reference: null,
      }),
  };
}

export interface CheckoutRow {
  id: string;
  workspace_id: string;
  plan: typeof PAID_PLANS[number];
  billing_interval: typeof BILLING_INTERVALS[number];
  provider: string;
  checkout_url: string;
  status: "pending" | "completed" | "canceled";
  created_at: Date;
  completed_at: Date | null;
}

/** The columns of CheckoutRow. */
export const CHECKOUT_COLUMNS = frag`id, workspace_id, plan, billing_interval, provider,
  checkout_url, status, created_at, completed_at`;

export async function findCheckout(sql: Sql, id: string, workspaceId: string) {
  const [row] = await sql<CheckoutRow>`
    select ${CHECKOUT_COLUMNS} from billing_checkouts
    where id = ${id} and workspace_id = ${workspaceId}`;
  return row ?? null;
}

/**
 * Marks a checkout paid and switches its workspace's plan in the same transaction; the answer
 * limit follows at once because it is read from the workspace's plan on every answer.
 * Completing twice changes nothing the second time. Answers the checkout as it was before
 * (null: no such checkout); only a pending one changes.
 */
export async function completeCheckout(db: Db, id: string, now: Date) {
  return await db.begin(async (tx) => {
    const [checkout] = await tx<CheckoutRow>`
      select ${CHECKOUT_COLUMNS} from billing_checkouts where id = ${id} for update`;
    if (checkout?.status !== "pending") return checkout ?? null;
    await tx`
      update billing_checkouts set status = 'completed', completed_at = ${now} where id = ${id}`;
    await tx`update workspaces set plan = ${checkout.plan} where id = ${checkout.workspace_id}`;
    return checkout;
  });
}
