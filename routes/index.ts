// Every route of the service, one import per resource file.
import type { Route } from "../lib/router.ts";
import { routes as openapi } from "./openapi.ts";
import { routes as status } from "./status.ts";

export const allRoutes: Route[] = [
  ...status,
  ...openapi,
];
