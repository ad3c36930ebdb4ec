// POST /api/v1/billing/checkout (start paying for a plan) and GET
// /api/v1/billing/checkouts/{id} (its status). Owner only.

import { user } from "../../lib/forms/auth.ts";
import {
  BILLING_INTERVALS,
  CHECKOUT_COLUMNS,
  type CheckoutRow,
  findCheckout,
  PAID_PLANS,
  paymentProvider,
} from "../../lib/forms/billing.ts";
import { json } from "../../lib/http/router.ts";
import { conflict, createdAnswer, formsRoutes, notFound } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";

/** The workspace's billing, from the origins it allows. */
const billingRoute = formsRoutes({ tag: "billing", cors: "credentialed" });

const checkoutBody = s.named(
  "CheckoutRequest",
  s.object({ plan: s.enumOf(PAID_PLANS), interval: s.enumOf(BILLING_INTERVALS) }),
);

const checkoutSchema = s.named(
  "Checkout",
  s.object({
    id: s.uuid(),
    plan: s.enumOf(PAID_PLANS),
    interval: s.enumOf(BILLING_INTERVALS),
    status: s.enumOf(["pending", "completed", "canceled"]),
    checkout_url: s.string({
      description: "Where the customer pays.",
      example:
        "https://forms.example.com/api/v1/billing/checkouts/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
    }),
    provider: s.string({ example: "manual" }),
    created_at: s.dateTime(),
    completed_at: s.nullable(s.dateTime()),
  }),
);

function iso(date: Date | null): string | null {
  return date ? date.toISOString().replace(/\.\d{3}Z$/, "Z") : null;
}

function present(row: CheckoutRow) {
  return {
    id: row.id,
    plan: row.plan,
    interval: row.billing_interval,
    status: row.status,
    checkout_url: row.checkout_url,
    provider: row.provider,
    created_at: iso(row.created_at),
    completed_at: iso(row.completed_at),
  };
}

export const routes = [
  billingRoute({
    method: "POST",
    path: "/api/v1/billing/checkout",
    summary: "Start a checkout for a paid plan",
    description: "Creates a pending checkout for the request's workspace: plan `pro` " +
      "(100,000 answers per month) or `business` (unlimited), interval `month` or `year`. " +
      "Answers 201 `{id, plan, interval, status, checkout_url, ...}`; the customer pays at " +
      "`checkout_url`. The plan switches when the payment provider reports the payment; with " +
      "the built-in manual provider the operator runs `deno task admin billing complete <id>` " +
      "and `checkout_url` is this checkout's status resource. A checkout for the plan the " +
      "workspace already has: 409 (field plan). Accepts Idempotency-Key: a replay creates no " +
      "second checkout.",
    auth: user("owner"),
    body: checkoutBody,
    idempotent: true,
    errors: [409],
    responses: {
      201: {
        description: "Pending checkout.",
        schema: checkoutSchema,
        headers: { Location: "The checkout's status resource." },
      },
    },
    handler: async ({ app, body, principal, req }) => {
      const [workspace] = await app.db.sql<{ plan: string }>`
        select plan from workspaces where id = ${principal.workspaceId}`;
      if (workspace?.plan === body.plan) {
        throw conflict(`This workspace is already on the ${body.plan} plan.`, "plan");
      }
      const provider = paymentProvider(app.config);
      const id = crypto.randomUUID();
      const started = await provider.startCheckout({
        id,
        workspaceId: principal.workspaceId,
        plan: body.plan,
        interval: body.interval,
      });
      // The provider is called first, outside the transaction: a crash before the commit
      // leaves at most a checkout there that nobody pays, and the retry starts another.
      return app.db.begin(async (tx) => {
        const [row] = await tx<CheckoutRow>`
          insert into billing_checkouts
            (id, workspace_id, created_by, plan, billing_interval, provider, provider_ref,
             checkout_url, created_at)
          values (${id}, ${principal.workspaceId}, ${principal.userId}, ${body.plan},
            ${body.interval}, ${provider.name}, ${started.reference}, ${started.url},
            ${app.clock()})
          returning ${CHECKOUT_COLUMNS}`;
        return createdAnswer(tx, req, 201, "/api/v1/billing/checkouts", present(row));
      });
    },
  }),
  billingRoute({
    method: "GET",
    path: "/api/v1/billing/checkouts/{id}",
    summary: "A checkout's status",
    description: "pending until the payment is reported, then completed (the workspace's " +
      "plan has switched). A checkout of another workspace: 404.",
    auth: user("owner"),
    params: { id: s.uuid() },
    responses: { 200: { description: "The checkout.", schema: checkoutSchema } },
    handler: async ({ app, params, principal }) => {
      const row = await findCheckout(app.db.sql, params.id, principal.workspaceId);
      if (!row) throw notFound("No such checkout.");
      return json(present(row));
    },
  }),
];
