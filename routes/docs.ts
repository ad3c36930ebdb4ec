// GET /docs: the API reference, rendered in the browser from GET /api/openapi by Redoc's
// standalone bundle, which the service serves itself (vendor/redoc/): it works offline and
// from a compiled binary, and the page loads nothing from another origin.

import REDOC from "../vendor/redoc/redoc.standalone.js" with { type: "text" };
import { defineRoute, noAuth, type Route } from "../lib/http/router.ts";

/**
 * The bundle as served: its one reference to another origin, the logo of its "API docs by
 * Redocly" link, becomes an empty image, which Redoc drops (it hides the logo when it fails).
 */
const OFFLINE_REDOC = REDOC.replaceAll("https://cdn.redoc.ly/redoc/logo-mini.svg", "data:,");

/**
 * The bundle gzipped, made once per service on the first request that accepts it (a third of
 * the bytes); not at start, which every service and test would pay for.
 */
const gzipped = new WeakMap<Route[], Promise<Uint8Array<ArrayBuffer>>>();

function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Response(stream).bytes();
}

/** The vendored Redoc's version: part of the script's path, so a new one is a new URL. */
export const REDOC_VERSION = "2.5.4";
const SCRIPT_PATH = `/docs/redoc-${REDOC_VERSION}.js`;

/**
 * Nothing from another origin: scripts, requests, fonts and images from this one only. Redoc
 * styles its components with inline style elements and runs its search in a blob: worker;
 * frames and forms are refused.
 */
export const DOCS_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; " +
  "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE_HEADERS = {
  "Content-Security-Policy": DOCS_CSP,
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
};

// Redoc's options as attributes of its element: every response and sample expanded, the
// components under a "Schemas" entry, webhooks labelled with their method.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Onda API reference</title>
<link rel="icon" href="data:,">
<style>body{margin:0}</style>
</head>
<body>
<redoc spec-url="/api/openapi" expand-responses="all" json-samples-expand-level="all"
  schema-definitions-tag-name="Schemas" show-webhook-verb="true" show-object-schema-examples="true"
  show-security-scheme-type="true" path-in-middle-panel="true"></redoc>
<script src="${SCRIPT_PATH}"></script>
</body>
</html>
`;

export const routes = [
  defineRoute({
    method: "GET",
    path: "/docs",
    tag: "service",
    summary: "API reference (HTML)",
    description: "The reference of both APIs, rendered in the browser from GET /api/openapi by " +
      `Redoc ${REDOC_VERSION}, served by this instance: every tag, operation, parameter, ` +
      "schema, example, error, webhook and security scheme. Works offline; the page's " +
      "Content-Security-Policy allows nothing from another origin.",
    auth: noAuth,
    responses: {
      200: {
        description: "The page.",
        contentType: "text/html; charset=utf-8",
        example: '<!doctype html>\n<html lang="en">\n...\n<redoc spec-url="/api/openapi"' +
          "></redoc>\n...\n</html>\n",
        headers: PAGE_HEADERS,
      },
    },
    handler: () =>
      new Response(PAGE, {
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "no-cache",
          ...PAGE_HEADERS,
        },
      }),
  }),
  defineRoute({
    method: "GET",
    path: SCRIPT_PATH,
    tag: "service",
    summary: "Redoc standalone script",
    description: `Redoc ${REDOC_VERSION}'s standalone bundle (MIT), as published on npm, for ` +
      "GET /docs. Its path names its version, so it is cached for a year.",
    auth: noAuth,
    responses: {
      200: {
        description: "The script.",
        contentType: "text/javascript; charset=utf-8",
        example: "/*! For license information please see redoc.standalone.js.LICENSE.txt */\n...",
        headers: {
          "Cache-Control": "public, max-age=31536000, immutable",
          "Content-Encoding": "gzip where Accept-Encoding allows it",
        },
      },
    },
    handler: async ({ app, req }) => {
      const headers: Record<string, string> = {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
        Vary: "Accept-Encoding",
      };
      if (!/\bgzip\b/.test(req.headers.get("accept-encoding") ?? "")) {
        return new Response(OFFLINE_REDOC, { headers });
      }
      let bytes = gzipped.get(app.routes);
      if (!bytes) gzipped.set(app.routes, bytes = gzip(OFFLINE_REDOC));
      return new Response(await bytes, { headers: { ...headers, "Content-Encoding": "gzip" } });
    },
  }),
];
