// POST /api/v1/workspace/signing-secret/rotate: a new signing secret for the workspace's webhooks,
// the previous one signing beside it for a grace period (contract.md §3).

import { answeredInTransaction } from "../../lib/http/idempotency.ts";
import { defineAdminRoute, signingSecret } from "../../lib/forms/webhooks.ts";
import * as s from "../../lib/http/schema.ts";
import { newSigningSecret } from "../../lib/webhooks/signing.ts";

/** How long the previous secret keeps signing after a rotation. */
const ROTATION_GRACE_MS = 24 * 3600 * 1000;

export const routes = [
  defineAdminRoute({
    method: "POST",
    path: "/api/v1/workspace/signing-secret/rotate",
    summary: "Rotate the webhook signing secret",
    description: "Replaces the workspace's signing secret, 200 with the new one. For 24 h " +
      "the previous secret also signs every delivery (both signatures are sent), so " +
      "receivers can switch without losing deliveries; a second rotation within that time " +
      "ends the grace of the oldest secret. Needs admin. Accepts Idempotency-Key (a retried " +
      "rotation must not rotate twice).",
    idempotent: true,
    sealed: { body: ["signing_secret"] },
    responses: {
      200: {
        description: "Rotated.",
        schema: s.named(
          "SigningSecret",
          s.object({
            signing_secret: signingSecret("The new signing secret."),
            previous_secret_expires_at: s.dateTime("Until then the previous secret also signs."),
          }),
        ),
      },
    },
    handler: ({ app, principal, req }) => {
      const expires = new Date(app.clock().getTime() + ROTATION_GRACE_MS);
      // The Idempotency-Key's answer commits with the rotation: a retry after a crash in
      // between would otherwise rotate again, and the secret receivers hold would stop
      // signing at once instead of after 24 h.
      return answeredInTransaction(app.db, req, 200, async (tx) => {
        const [row] = await tx`
          update workspaces
          set previous_signing_secret = signing_secret, previous_secret_expires_at = ${expires},
              signing_secret = ${newSigningSecret()}
          where id = ${principal.workspaceId}
          returning signing_secret, previous_secret_expires_at`;
        return row;
      });
    },
  }),
];
