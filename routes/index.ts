// Every route of the service, one import per resource file.
import type { Route } from "../lib/http/router.ts";
import { routes as openapi } from "./openapi.ts";
import { routes as status } from "./status.ts";
import { routes as docs } from "./docs.ts";
import { routes as whoami } from "./ads/whoami.ts";
import { routes as ads } from "./ads/ads.ts";
import { routes as reports } from "./ads/reports.ts";
import { routes as coverage } from "./ads/coverage.ts";
import { routes as auth } from "./forms/auth.ts";
import { routes as workspace } from "./forms/workspace.ts";
import { routes as invitations } from "./forms/invitations.ts";
import { routes as questionnaires } from "./forms/questionnaires.ts";
import { routes as publicForms } from "./forms/public.ts";
import { routes as embed } from "./forms/embed.ts";
import { routes as billing } from "./forms/billing.ts";
import { routes as exports } from "./forms/exports.ts";
import { routes as sessions } from "./forms/sessions.ts";
import { routes as erasures } from "./forms/erasures.ts";
import { routes as webhooks } from "./webhooks/webhooks.ts";
import { routes as deliveries } from "./webhooks/deliveries.ts";
import { routes as signingSecret } from "./webhooks/signing_secret.ts";
import { routes as events } from "./webhooks/events.ts";

export const allRoutes: Route[] = [
  ...status,
  ...openapi,
  ...docs,
  ...whoami,
  ...ads,
  ...reports,
  ...coverage,
  ...auth,
  ...workspace,
  ...invitations,
  ...questionnaires,
  ...publicForms,
  ...embed,
  ...billing,
  ...exports,
  ...sessions,
  ...erasures,
  ...webhooks,
  ...deliveries,
  ...signingSecret,
  ...events,
];
