// What the webhooks area's route files share (routes/webhooks/): their definer, the caller's
// webhook as the API answers it, and the signing secret's shape.

import { frag } from "../db/db.ts";
import type { AppContext, Route, RouteDef } from "../http/router.ts";
import * as s from "../http/schema.ts";
import { user, type UserPrincipal } from "./auth.ts";
import { type FormsApp, formsRoutes, notFound } from "./wing.ts";

const webhooksRoute = formsRoutes({ tag: "webhooks", cors: "credentialed" });

/** A route of this area (webhooks, events): the workspace's admins, from its allowed origins. */
export function defineAdminRoute<
  QS extends s.Shape = s.Shape,
  PS extends s.Shape = s.Shape,
  B = undefined,
>(
  def: Omit<RouteDef<QS, PS, B, UserPrincipal, FormsApp>, "tag" | "auth" | "cors">,
): Route {
  return webhooksRoute({ ...def, auth: user("admin") });
}

/** A webhook's columns, as the API answers them (the Webhook schema). */
export const WEBHOOK_COLUMNS =
  frag`id, url, events, status, disabled_at, disabled_reason, created_at`;

export const noSuchWebhook = () => notFound("No such webhook.");

/** The webhook when it belongs to the caller's workspace; another workspace's is 404. */
export async function findWebhook(app: AppContext, principal: UserPrincipal, id: string) {
  const [row] = await app.db.sql`
    select ${WEBHOOK_COLUMNS} from webhooks
    where id = ${id} and workspace_id = ${principal.workspaceId}`;
  if (!row) throw noSuchWebhook();
  return row;
}

/** A signing secret, as the webhook's creation and the secret's rotation answer it. */
export const signingSecret = (description: string) =>
  s.string({ description, example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3tw6R7yR0oA=" });
