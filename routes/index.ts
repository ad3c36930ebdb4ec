// Every route of the service, one import per resource file.
import type { Route } from "../lib/router.ts";
import { routes as openapi } from "./openapi.ts";
import { routes as status } from "./status.ts";
import { routes as whoami } from "./whoami.ts";
import { routes as ads } from "./ads.ts";
import { routes as reports } from "./reports.ts";
import { routes as coverage } from "./coverage.ts";
import { routes as auth } from "./auth.ts";
import { routes as workspace } from "./workspace.ts";
import { routes as questionnaires } from "./questionnaires.ts";
import { routes as publicForms } from "./public.ts";
import { routes as embed } from "./embed.ts";
import { routes as billing } from "./billing.ts";
import { routes as exports } from "./exports.ts";
import { routes as webhooks } from "./webhooks.ts";

export const allRoutes: Route[] = [
  ...status,
  ...openapi,
  ...whoami,
  ...ads,
  ...reports,
  ...coverage,
  ...auth,
  ...workspace,
  ...questionnaires,
  ...publicForms,
  ...embed,
  ...billing,
  ...exports,
  ...webhooks,
];
