// Billing checkouts: the payment provider interface, the built-in manual provider, and the
// one place that completes a checkout and switches the workspace's plan.

import type { Db, Sql } from "../db/db.ts";

export type PaidPlan = "pro" | "business";
export type BillingInterval = "month" | "year";

export const PAID_PLANS: readonly PaidPlan[] = ["pro", "business"];
export const BILLING_INTERVALS: readonly BillingInterval[] = ["month", "year"];

export interface CheckoutRequest {
  id: string;
  workspaceId: string;
  plan: PaidPlan;
  interval: BillingInterval;
}

/**
 * What a payment provider must do: start a payment for a pending checkout and say where the
 * customer goes to pay. Completion reaches the service through `completeCheckout` (a provider
 * webhook, or for the manual provider the admin command).
 */
export interface PaymentProvider {
  readonly name: string;
  startCheckout(checkout: CheckoutRequest): Promise<{ url: string; reference: string | null }>;
}

/**
 * The built-in provider: nothing is charged online. The checkout URL is the checkout's own
 * status resource; the operator settles the payment out of band and runs
 * `deno task admin billing complete <id>`.
 */
export function manualProvider(publicBaseUrl: string): PaymentProvider {
  return {
    name: "manual",
    startCheckout(checkout) {
      return Promise.resolve({
        url: `${publicBaseUrl}/api/v1/billing/checkouts/${checkout.id}`,
        reference: null,
      });
    },
  };
}

/**
 * The provider checkouts go to. Only the manual one is built in; a hosted provider (Stripe,
 * Paddle, ...) is another implementation of PaymentProvider chosen here.
 */
export function paymentProvider(config: { publicBaseUrl: string }): PaymentProvider {
  return manualProvider(config.publicBaseUrl);
}

export interface CheckoutRow {
  id: string;
  workspace_id: string;
  plan: PaidPlan;
  billing_interval: BillingInterval;
  provider: string;
  checkout_url: string;
  status: "pending" | "completed" | "canceled";
  created_at: Date;
  completed_at: Date | null;
}

export async function findCheckout(
  sql: Sql,
  id: string,
  workspaceId: string,
): Promise<CheckoutRow | null> {
  const [row] = await sql<CheckoutRow>`
    select id, workspace_id, plan, billing_interval, provider, checkout_url, status, created_at,
      completed_at
    from billing_checkouts where id = ${id} and workspace_id = ${workspaceId}`;
  return row ?? null;
}

export type CompleteResult =
  | { outcome: "completed"; checkout: CheckoutRow }
  | { outcome: "already_completed"; checkout: CheckoutRow }
  | { outcome: "canceled"; checkout: CheckoutRow }
  | { outcome: "not_found" };

/**
 * Marks a checkout paid and switches its workspace's plan in the same transaction; the answer
 * limit follows at once because it is read from the workspace's plan on every answer.
 * Completing twice changes nothing the second time.
 */
export async function completeCheckout(db: Db, id: string, now: Date): Promise<CompleteResult> {
  return await db.begin(async (tx) => {
    const [checkout] = await tx<CheckoutRow>`
      select id, workspace_id, plan, billing_interval, provider, checkout_url, status, created_at,
      completed_at
      from billing_checkouts where id = ${id} for update`;
    if (!checkout) return { outcome: "not_found" as const };
    if (checkout.status === "completed") return { outcome: "already_completed" as const, checkout };
    if (checkout.status === "canceled") return { outcome: "canceled" as const, checkout };
    const [done] = await tx<CheckoutRow>`
      update billing_checkouts set status = 'completed', completed_at = ${now}
      where id = ${id}
      returning id, workspace_id, plan, billing_interval, provider, checkout_url, status,
        created_at, completed_at`;
    await tx`update workspaces set plan = ${checkout.plan} where id = ${checkout.workspace_id}`;
    return { outcome: "completed" as const, checkout: done };
  });
}
