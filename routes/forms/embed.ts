// GET /embed.js (the embed script) and GET /try/{slug} (a page that embeds it, so a newcomer
// sees a questionnaire working in the browser right after `deno task demo`).

import EMBED_SCRIPT from "../../lib/forms/embed.js" with { type: "text" };
import { sha256Hex } from "../../lib/encoding.ts";
import { defineRoute, noAuth } from "../../lib/http/router.ts";
import * as s from "../../lib/http/schema.ts";

// A strong validator of the exact bytes served; computed once, never changes while running.
const SCRIPT_ETAG = `"${sha256Hex(EMBED_SCRIPT).slice(0, 32)}"`;

/** Short enough to revalidate soon after a release, long enough to spare busy host pages. */
const SCRIPT_CACHE = "public, max-age=300";

/**
 * The try page's policy: its scripts and requests only from this origin, no framing; the one
 * Worker the embed builds from a Blob to solve a form token's proof of work.
 */
const TRY_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; script-src 'self'; connect-src 'self'; " +
    "worker-src blob:; " +
    "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

/** Slugs the page accepts; anything else is 404 before any HTML is produced. */
const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function etagMatches(header: string | null): boolean {
  if (!header) return false;
  return header.trim() === "*" ||
    header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === SCRIPT_ETAG);
}

export const routes = [
  defineRoute({
    method: "GET",
    path: "/embed.js",
    tag: "embed",
    summary: "Embed script",
    description: "Dependency-free script: a script element with " +
      '`src="{base_url}/embed.js"` and `data-form="SLUG"` renders that published ' +
      "questionnaire in place (in an open Shadow DOM): it asks name and e-mail, shows one " +
      "question at a time with an input " +
      "for its type, a progress bar, the service's validation messages next to the field and " +
      "a completion message. Each POST carries an Idempotency-Key reused on retries and " +
      "double clicks. On a questionnaire with bot_protection it solves the form token's proof " +
      "of work in a Worker built from a Blob (a host page whose Content-Security-Policy has " +
      "no worker-src blob: gets it solved on the main thread, asynchronously), waits out the " +
      "minimum fill time only if the visitor is faster, and sends a hidden honeypot field. " +
      "It needs a secure context (https or localhost), as crypto.subtle does. " +
      "It calls the public API relative to its own URL. Served with " +
      "`Cache-Control: public, max-age=300`, a strong ETag (If-None-Match answers 304) and " +
      "`Access-Control-Allow-Origin: *`.",
    auth: noAuth,
    cors: "public",
    responses: {
      200: {
        description: "The script.",
        contentType: "text/javascript; charset=utf-8",
        example: '(() => { "use strict"; /* renders each script[data-form] ... */ })();\n',
        headers: {
          ETag: "Strong validator of the script bytes.",
          "Cache-Control": SCRIPT_CACHE,
          "Cross-Origin-Resource-Policy": "cross-origin",
        },
      },
      304: {
        description: "Not modified (If-None-Match matched the ETag).",
        headers: { ETag: "Strong validator of the script bytes.", "Cache-Control": SCRIPT_CACHE },
      },
    },
    handler: ({ req }) => {
      const headers = {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": SCRIPT_CACHE,
        ETag: SCRIPT_ETAG,
        // The script is meant to be loaded cross-origin by any site.
        "Cross-Origin-Resource-Policy": "cross-origin",
      };
      if (etagMatches(req.headers.get("if-none-match"))) {
        return new Response(null, { status: 304, headers });
      }
      return new Response(EMBED_SCRIPT, { status: 200, headers });
    },
  }),
  defineRoute({
    method: "GET",
    path: "/try/{slug}",
    tag: "embed",
    summary: "Try a questionnaire in the browser",
    description: "An HTML page that embeds /embed.js for the questionnaire with this slug, to " +
      "see the embed working (the demo prints such a URL). The page carries a strict " +
      "Content-Security-Policy: scripts only from this origin, requests only to this origin, " +
      "no framing. The page is the same for every well-formed slug and reads nothing: the " +
      "embedded script asks the public API for the questionnaire, so a slug that is not a " +
      "published questionnaire still answers 200, and the page shows the service's message " +
      "(No published questionnaire has this slug.) where the form would be.",
    auth: noAuth,
    params: {
      slug: s.string({ min: 1, max: 128, pattern: SLUG, patternHint: "a questionnaire slug" }),
    },
    responses: {
      200: {
        description: "The page, for any well-formed slug.",
        contentType: "text/html; charset=utf-8",
        example: '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
          "<title>Try questionnaire customer-feedback</title>\n</head>\n<body>\n...\n" +
          "</body>\n</html>\n",
        headers: TRY_HEADERS,
      },
      404: {
        description: "Not a slug (1 to 128 letters, digits, dots, underscores or hyphens, " +
          "starting with a letter or digit): no page is made (NOT_FOUND).",
      },
    },
    handler: ({ params }) => {
      const slug = escapeHtml(params.slug);
      const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Try questionnaire ${slug}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:40rem;padding:0 1rem}</style>
</head>
<body>
<p>This page embeds the questionnaire <code>${slug}</code> with one tag:</p>
<pre>&lt;script src="/embed.js" data-form="${slug}"&gt;&lt;/script&gt;</pre>
<script src="/embed.js" data-form="${slug}"></script>
</body>
</html>
`;
      return new Response(page, {
        status: 200,
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "no-store",
          ...TRY_HEADERS,
        },
      });
    },
  }),
];
