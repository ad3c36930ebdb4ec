// Generated from GET /api/openapi by tests/client/generate_types.ts (deno task openapi-types).
// Do not edit: typed_client_test.ts checks it matches the served document.

export interface paths {
    "/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Service status
         * @description 200 {status:"ok",version,checks:{database:"ok"}} when healthy; 503 with status "degraded" when the database does not answer within 2 s, or "maintenance" (with until, null = until switched off) during a maintenance window, with Retry-After.
         *
         *     No authentication.
         */
        get: operations["getStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OpenAPI 3.1 document
         * @description Generated from the same route and schema definitions that validate requests. X-Spec-Version carries its SemVer.
         *
         *     No authentication.
         */
        get: operations["getApiOpenapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account and its effective permissions
         * @description Needs only a valid key (no permission). Lists the key's permissions, the granted stations and brands that exist (sorted by id), the granted period (null when the account has no grant) and every limit of ads-api.md §8. Counts against the rate limit.
         *
         *     Any valid API key (Authorization: Bearer); no permission needed.
         */
        get: operations["getWhoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Confirmed occurrences within the account scope
         * @description Only confirmed occurrences of approved snapshots whose station is granted, whose ad_started_at lies in the granted period and that carry at least one granted brand; brands lists only the granted ones. The scope is applied in SQL before counting and paging. Ordered by ad_started_at, then id. The effective period is the requested one (default: the 7 days before until; until defaults to now and is exclusive; at most 31 days) intersected with the grant: meta shows both, and period is null when they do not overlap (empty result). duration_seconds = ad_ended_at - ad_started_at. A page past the end is empty, with the total and has_more false. Order of checks: 401, 403, 429, 422, 404.
         *
         *     API key (Authorization: Bearer) with the ads:read permission.
         */
        get: operations["getAds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Aggregations over the permitted data
         * @description The occurrences /api/v1/ads would list for the same filters, aggregated (no paging: limit and offset are rejected). An occurrence with two granted brands counts once in totals, by_station and by_day and once under each granted brand in by_brand. by_station lists every station in scope and by_day every UTC date the effective period touches, with zeros; by_brand lists the granted brands that occur. human_confirmed_duration_seconds sums the durations whose boundaries a person reviewed. Whole days come from daily figures and partial days from raw rows, so figures are exact. Period rules and order of checks as /api/v1/ads.
         *
         *     API key (Authorization: Bearer) with the reports:read permission.
         */
        get: operations["getReportsSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Coverage of the granted sources, with limits and provenance
         * @description Accepts since, until and station_id with the period rules of /api/v1/ads (brand_id, limit and offset are rejected: captures belong to stations, not brands). For each station in scope, sorted by id: captures overlapping the effective period, the seconds they cover (overlaps counted once, clipped to the period), the period length, their ratio, the first and last captured moments, and the gaps longer than COVERAGE_GAP_SECONDS (default 300) between captures and at the period's edges. Only captures of approved snapshots for granted stations within the granted period count; this does not measure continuous operation of a station. meta.provenance lists the snapshots whose captures were used, by exported_at, then id. data is empty when the requested and granted periods do not overlap. An approval is reflected from the next request on.
         *
         *     API key (Authorization: Bearer) with the coverage:read permission.
         */
        get: operations["getCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register
         * @description Creates a user and a workspace it owns (plan DEFAULT_PLAN), signs the user in (sets the service_token cookie) and answers like login, 201. An e-mail already registered: 409 (field email). Accepts Idempotency-Key: a replay answers the same cookie and creates nothing; the stored answer keeps the cookie encrypted (AES-GCM, key derived from SECRET_KEY) and the request only as a keyed digest, never the password.
         *
         *     No authentication; rate limited per client address.
         */
        post: operations["postAuthRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in
         * @description Checks e-mail and password and sets the service_token cookie (valid 14 days). A wrong password and an unknown e-mail answer the same 401 after the same work. After 10 failures for one e-mail or 50 from one address within 15 minutes: 429 with Retry-After. Not a creating POST (200, no resource to address): Idempotency-Key is ignored, and a repeated login simply opens another session.
         *
         *     No authentication; rate limited per client address.
         */
        post: operations["postAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log out
         * @description Revokes the credential of this request (cookie or bearer token) and clears the cookie, 204.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bearer tokens
         * @description The user's unrevoked bearer tokens (never the token values), newest first.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        get: operations["getAuthTokens"];
        put?: never;
        /**
         * Create a bearer token
         * @description Creates a token for scripts (Authorization: Bearer), valid until revoked, with the user's access. The token is shown only in this answer; only its SHA-256 digest is kept. Accepts Idempotency-Key: a replay within 24 h answers the same token and creates no other; for that the stored answer keeps the token encrypted (AES-GCM, key derived from SECRET_KEY) until the key expires.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postAuthTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a bearer token
         * @description Revokes one of the user's bearer tokens, 204; effective on the next request.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        delete: operations["deleteAuthTokensId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current workspace
         * @description The workspace of X-Workspace-Id (or the user's first): the caller's role, allowed CORS origins, plan and this month's answer usage.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        get: operations["getWorkspace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the workspace
         * @description Renames the workspace and/or replaces its allowed CORS origins (at most 50; browsers on these origins may call the API with the cookie). Needs admin.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        patch: operations["patchWorkspace"];
        trace?: never;
    };
    "/api/v1/workspace/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members
         * @description Members of the workspace with their roles, oldest first.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        get: operations["getWorkspaceMembers"];
        put?: never;
        /**
         * Add a member
         * @description Adds an existing user, found by e-mail, with a role, 201. No such user: 404 (field email); already a member: 409. Needs admin; only an owner may add an owner.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postWorkspaceMembers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspace/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member
         * @description Needs admin (an owner to remove an owner); the last owner cannot be removed (409). 204.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        delete: operations["deleteWorkspaceMembersUserId"];
        options?: never;
        head?: never;
        /**
         * Change a member's role
         * @description Needs admin; only an owner may grant or take away the owner role; the last owner cannot be demoted (409).
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        patch: operations["patchWorkspaceMembersUserId"];
        trace?: never;
    };
    "/api/v1/questionnaires": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List questionnaires
         * @description The workspace's questionnaires (deleted ones excluded), newest first, in the list envelope; optional filter by state. Keyset pagination: stable under concurrent changes.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        get: operations["getQuestionnaires"];
        put?: never;
        /**
         * Create a questionnaire
         * @description Creates a draft, 201. slug defaults to one made from the title plus a random suffix; slugs are unique across the service (they are public URLs): a taken slug is 409 (field slug). Question types: text, email, number, choice (needs at least 2 distinct options; answers must be one of them), rating (integer 1 to 5). required defaults to true. Needs editor. Accepts Idempotency-Key.
         *
         *     Cookie service_token or Authorization: Bearer; role editor or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postQuestionnaires"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/questionnaires/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a questionnaire
         * @description With its questions. Another workspace's or a deleted questionnaire: 404.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        get: operations["getQuestionnairesId"];
        put?: never;
        post?: never;
        /**
         * Delete a questionnaire
         * @description Soft delete from any state, 204; afterwards it is 404 everywhere (and 409 on publish). Its sessions and answers are kept. Needs editor.
         *
         *     Cookie service_token or Authorization: Bearer; role editor or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        delete: operations["deleteQuestionnairesId"];
        options?: never;
        head?: never;
        /**
         * Change a draft
         * @description Changes title, slug and/or questions (questions replace the whole list; their ids change). Only a draft can change: otherwise 409 (field state). Needs editor.
         *
         *     Cookie service_token or Authorization: Bearer; role editor or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        patch: operations["patchQuestionnairesId"];
        trace?: never;
    };
    "/api/v1/questionnaires/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a draft
         * @description draft -> published: visitors can then start sessions under its slug. A deleted questionnaire: 409 CONFLICT (field state), as is one that is not a draft; a draft without questions: 409 (field questions). Needs editor.
         *
         *     Cookie service_token or Authorization: Bearer; role editor or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postQuestionnairesIdPublish"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/questionnaires/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a published questionnaire
         * @description published -> closed: no new sessions and no further answers. Otherwise 409 (field state). Needs editor.
         *
         *     Cookie service_token or Authorization: Bearer; role editor or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postQuestionnairesIdClose"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/public/q/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a published questionnaire
         * @description Title and questions (ids, titles, types, options, required) of a published questionnaire; a draft, closed, deleted or unknown slug: 404. CORS: any origin.
         *
         *     No authentication; rate limited per client address.
         */
        get: operations["getPublicQSlug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/public/q/{slug}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a session
         * @description Starts a visitor's session on a published questionnaire, 201 {sessionId}. name, email (an e-mail address) and loaded_at (epoch ms when the form was loaded) are all required; loaded_at more than 5 minutes in the future or older than 24 hours: 400 (field loaded_at). sessionId is a random integer below 2^53. A closed, draft or unknown questionnaire: 404. Emits session.started. Accepts Idempotency-Key.
         *
         *     No authentication; rate limited per client address.
         */
        post: operations["postPublicQSlugSessions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/public/q/{slug}/sessions/{sessionId}/answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer a question
         * @description Stores the answer to one question, 201 {success, isComplete, progress}. The answer to the last open question completes the session. Unknown session: 404; a questionId not in this questionnaire: 404 (field questionId); a second answer to a question: 409 (field questionId); a completed session or a closed questionnaire: 409; an answer invalid for the question type: 400 (field answerText; empty only when not required); over the workspace's monthly answers: 422 (field plan.answers_per_month), nothing stored. Emits answer.submitted, and session.completed once. Accepts Idempotency-Key.
         *
         *     No authentication; rate limited per client address.
         */
        post: operations["postPublicQSlugSessionsSessionIdAnswers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/embed.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Embed script
         * @description Dependency-free script: a script element with `src="{base_url}/embed.js"` and `data-form="SLUG"` renders that published questionnaire in place (in an open Shadow DOM): it asks name and e-mail, shows one question at a time with an input for its type, a progress bar, the service's validation messages next to the field and a completion message. Each POST carries an Idempotency-Key reused on retries and double clicks. It calls the public API relative to its own URL. Served with `Cache-Control: public, max-age=300`, a strong ETag (If-None-Match answers 304) and `Access-Control-Allow-Origin: *`.
         *
         *     No authentication.
         */
        get: operations["getEmbedJs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/try/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Try a questionnaire in the browser
         * @description An HTML page that embeds /embed.js for the questionnaire with this slug, to see the embed working (the demo prints such a URL). The page carries a strict Content-Security-Policy: scripts only from this origin, requests only to this origin, no framing. The page is the same for every well-formed slug and reads nothing: the embedded script asks the public API for the questionnaire, so a slug that is not a published questionnaire still answers 200, and the page shows the service's message (No published questionnaire has this slug.) where the form would be.
         *
         *     No authentication.
         */
        get: operations["getTrySlug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a checkout for a paid plan
         * @description Creates a pending checkout for the request's workspace: plan `pro` (100,000 answers per month) or `business` (unlimited), interval `month` or `year`. Answers 201 `{id, plan, interval, status, checkout_url, ...}`; the customer pays at `checkout_url`. The plan switches when the payment provider reports the payment; with the built-in manual provider the operator runs `deno task admin billing complete <id>` and `checkout_url` is this checkout's status resource. A checkout for the plan the workspace already has: 409 (field plan). Accepts Idempotency-Key: a replay creates no second checkout.
         *
         *     Cookie service_token or Authorization: Bearer; role owner or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postBillingCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/checkouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A checkout's status
         * @description pending until the payment is reported, then completed (the workspace's plan has switched). A checkout of another workspace: 404.
         *
         *     Cookie service_token or Authorization: Bearer; role owner or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        get: operations["getBillingCheckoutsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export a questionnaire's answers
         * @description Creates an export of the sessions and answers of a questionnaire of the workspace (admin or owner), as of this moment: sessions started and answers given later are left out, so every download of it holds the same rows. Answers 202 with the export, whose status is `ready` at once: the file is produced while it is downloaded (streamed from the database, so any size exports in bounded memory). A questionnaire of another workspace, or deleted: 404 (field questionnaire_id). Accepts Idempotency-Key.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postExports"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An export's status
         * @description The export (admin or owner). An export of another workspace: 404.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        get: operations["getExportsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an export
         * @description Streams the file. CSV (text/csv, UTF-8 with BOM, RFC 4180: CRLF line breaks, fields with a comma, quote or line break quoted, quotes doubled): a header row `session_id,name,email,started_at,completed_at` followed by one column per question (its title, in question order), then one row per session in session id order; an unanswered question is an empty field. Any field that starts with `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'` so that spreadsheets do not run it as a formula. NDJSON (application/x-ndjson): one object per session `{session_id, name, email, started_at, completed_at, answers: {<question id>: text}}`, values unchanged.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        get: operations["getExportsIdDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description The workspace's webhooks, newest first (the signing secret is shown only when creating or rotating). Needs admin.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        get: operations["getWebhooks"];
        put?: never;
        /**
         * Create a webhook
         * @description Subscribes a URL to the workspace's events (default: all three), 201 with the workspace's signing_secret. The URL must be https and its host must be, and resolve only to, public addresses (no loopback, private, CGNAT, link-local, unique-local or multicast ranges, IPv4 or IPv6, nor IPv4-mapped forms); the same check runs again before every delivery, against the name's current resolution, and the connection goes to the address that passed it. WEBHOOK_ALLOW_PRIVATE_TARGETS=1 lifts this (http and private targets, for development). A refused URL, or a host name that does not resolve: 400 (field url). At most 20 webhooks per workspace (422). Needs admin. Accepts Idempotency-Key. Every delivery is a POST of `{id, type, created_at, workspace_id, data}` with x-service-signature (hex HMAC-SHA256 of the raw body, keyed with the signing secret string as shown), x-service-event, x-service-delivery (the delivery id), x-service-timestamp (epoch seconds of the attempt), and the Standard Webhooks headers webhook-id (the event id, the same on every retry), webhook-timestamp and webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>", keyed with the base64-decoded part after whsec_, as the standardwebhooks libraries do). For 24 h after a rotation both secrets sign: x-service-signature then holds two comma-separated digests and webhook-signature two space-separated entries, the new secret's first; accept the delivery when any matches. data.sequence numbers the events of one session (deliveries run concurrently and may arrive out of order or, after a crash, twice: deduplicate by id).
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Deletes the webhook with its delivery log, 204; pending deliveries are dropped (an attempt already in flight may still arrive). Needs admin.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        delete: operations["deleteWebhooksId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Delivery log of a webhook
         * @description Deliveries, newest first, each with its status (pending, succeeded, failed), number of attempts, last response code, time and error, the next attempt (null once settled) and attempt_log, every attempt made. Retries follow WEBHOOK_RETRY_DELAYS (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h; each ±10 % jitter), or a later Retry-After on 429/503 (at most 24 h); 2xx succeeds; a redirect, another status, a timeout (10 s) or a refused target fails the attempt; 410 Gone fails it and disables the webhook. After the last scheduled attempt the delivery is failed and stays here. Optional filter status. Needs admin.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        get: operations["getWebhooksIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a delivery now
         * @description Makes the delivery due now, 202, whatever its status: a pending one skips its wait, a failed or succeeded one is sent again (same event id and body). Attempts keep counting, so a delivery past its schedule gets this one attempt and is failed again if it fails. While it is being attempted: 409; a disabled webhook: 409. Needs admin.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postWebhooksIdDeliveriesDeliveryIdRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test ping
         * @description Queues a signed `ping` event to this webhook, 202 with its delivery (follow it in the delivery log; it is retried like any event). Body: {id, type: "ping", created_at, workspace_id, data: {webhook_id}}. A disabled webhook: 409. Needs admin. Accepts Idempotency-Key.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postWebhooksIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspace/signing-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the webhook signing secret
         * @description Replaces the workspace's signing secret, 200 with the new one. For 24 h the previous secret also signs every delivery (both signatures are sent), so receivers can switch without losing deliveries; a second rotation within that time ends the grace of the oldest secret. Needs admin. Accepts Idempotency-Key (a retried rotation must not rotate twice).
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         */
        post: operations["postWorkspaceSigningSecretRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account and its effective permissions
         * @deprecated
         * @description Needs only a valid key (no permission). Lists the key's permissions, the granted stations and brands that exist (sorted by id), the granted period (null when the account has no grant) and every limit of ads-api.md §8. Counts against the rate limit.
         *
         *     Any valid API key (Authorization: Bearer); no permission needed.
         *
         *     Deprecated unprefixed alias of /api/v1/whoami; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getWhoamiDeprecated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Confirmed occurrences within the account scope
         * @deprecated
         * @description Only confirmed occurrences of approved snapshots whose station is granted, whose ad_started_at lies in the granted period and that carry at least one granted brand; brands lists only the granted ones. The scope is applied in SQL before counting and paging. Ordered by ad_started_at, then id. The effective period is the requested one (default: the 7 days before until; until defaults to now and is exclusive; at most 31 days) intersected with the grant: meta shows both, and period is null when they do not overlap (empty result). duration_seconds = ad_ended_at - ad_started_at. A page past the end is empty, with the total and has_more false. Order of checks: 401, 403, 429, 422, 404.
         *
         *     API key (Authorization: Bearer) with the ads:read permission.
         *
         *     Deprecated unprefixed alias of /api/v1/ads; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getAdsDeprecated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reports/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Aggregations over the permitted data
         * @deprecated
         * @description The occurrences /api/v1/ads would list for the same filters, aggregated (no paging: limit and offset are rejected). An occurrence with two granted brands counts once in totals, by_station and by_day and once under each granted brand in by_brand. by_station lists every station in scope and by_day every UTC date the effective period touches, with zeros; by_brand lists the granted brands that occur. human_confirmed_duration_seconds sums the durations whose boundaries a person reviewed. Whole days come from daily figures and partial days from raw rows, so figures are exact. Period rules and order of checks as /api/v1/ads.
         *
         *     API key (Authorization: Bearer) with the reports:read permission.
         *
         *     Deprecated unprefixed alias of /api/v1/reports/summary; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getReportsSummaryDeprecated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Coverage of the granted sources, with limits and provenance
         * @deprecated
         * @description Accepts since, until and station_id with the period rules of /api/v1/ads (brand_id, limit and offset are rejected: captures belong to stations, not brands). For each station in scope, sorted by id: captures overlapping the effective period, the seconds they cover (overlaps counted once, clipped to the period), the period length, their ratio, the first and last captured moments, and the gaps longer than COVERAGE_GAP_SECONDS (default 300) between captures and at the period's edges. Only captures of approved snapshots for granted stations within the granted period count; this does not measure continuous operation of a station. meta.provenance lists the snapshots whose captures were used, by exported_at, then id. data is empty when the requested and granted periods do not overlap. An approval is reflected from the next request on.
         *
         *     API key (Authorization: Bearer) with the coverage:read permission.
         *
         *     Deprecated unprefixed alias of /api/v1/coverage; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getCoverageDeprecated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register
         * @deprecated
         * @description Creates a user and a workspace it owns (plan DEFAULT_PLAN), signs the user in (sets the service_token cookie) and answers like login, 201. An e-mail already registered: 409 (field email). Accepts Idempotency-Key: a replay answers the same cookie and creates nothing; the stored answer keeps the cookie encrypted (AES-GCM, key derived from SECRET_KEY) and the request only as a keyed digest, never the password.
         *
         *     No authentication; rate limited per client address.
         *
         *     Deprecated unprefixed alias of /api/v1/auth/register; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postAuthRegisterDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in
         * @deprecated
         * @description Checks e-mail and password and sets the service_token cookie (valid 14 days). A wrong password and an unknown e-mail answer the same 401 after the same work. After 10 failures for one e-mail or 50 from one address within 15 minutes: 429 with Retry-After. Not a creating POST (200, no resource to address): Idempotency-Key is ignored, and a repeated login simply opens another session.
         *
         *     No authentication; rate limited per client address.
         *
         *     Deprecated unprefixed alias of /api/v1/auth/login; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postAuthLoginDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log out
         * @deprecated
         * @description Revokes the credential of this request (cookie or bearer token) and clears the cookie, 204.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/auth/logout; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postAuthLogoutDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bearer tokens
         * @deprecated
         * @description The user's unrevoked bearer tokens (never the token values), newest first.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/auth/tokens; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getAuthTokensDeprecated"];
        put?: never;
        /**
         * Create a bearer token
         * @deprecated
         * @description Creates a token for scripts (Authorization: Bearer), valid until revoked, with the user's access. The token is shown only in this answer; only its SHA-256 digest is kept. Accepts Idempotency-Key: a replay within 24 h answers the same token and creates no other; for that the stored answer keeps the token encrypted (AES-GCM, key derived from SECRET_KEY) until the key expires.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/auth/tokens; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postAuthTokensDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a bearer token
         * @deprecated
         * @description Revokes one of the user's bearer tokens, 204; effective on the next request.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/auth/tokens/{id}; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        delete: operations["deleteAuthTokensIdDeprecated"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current workspace
         * @deprecated
         * @description The workspace of X-Workspace-Id (or the user's first): the caller's role, allowed CORS origins, plan and this month's answer usage.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/workspace; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getWorkspaceDeprecated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the workspace
         * @deprecated
         * @description Renames the workspace and/or replaces its allowed CORS origins (at most 50; browsers on these origins may call the API with the cookie). Needs admin.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/workspace; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        patch: operations["patchWorkspaceDeprecated"];
        trace?: never;
    };
    "/api/workspace/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members
         * @deprecated
         * @description Members of the workspace with their roles, oldest first.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/workspace/members; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getWorkspaceMembersDeprecated"];
        put?: never;
        /**
         * Add a member
         * @deprecated
         * @description Adds an existing user, found by e-mail, with a role, 201. No such user: 404 (field email); already a member: 409. Needs admin; only an owner may add an owner.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/workspace/members; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postWorkspaceMembersDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspace/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member
         * @deprecated
         * @description Needs admin (an owner to remove an owner); the last owner cannot be removed (409). 204.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/workspace/members/{userId}; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        delete: operations["deleteWorkspaceMembersUserIdDeprecated"];
        options?: never;
        head?: never;
        /**
         * Change a member's role
         * @deprecated
         * @description Needs admin; only an owner may grant or take away the owner role; the last owner cannot be demoted (409).
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/workspace/members/{userId}; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        patch: operations["patchWorkspaceMembersUserIdDeprecated"];
        trace?: never;
    };
    "/api/questionnaires": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List questionnaires
         * @deprecated
         * @description The workspace's questionnaires (deleted ones excluded), newest first, in the list envelope; optional filter by state. Keyset pagination: stable under concurrent changes.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/questionnaires; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getQuestionnairesDeprecated"];
        put?: never;
        /**
         * Create a questionnaire
         * @deprecated
         * @description Creates a draft, 201. slug defaults to one made from the title plus a random suffix; slugs are unique across the service (they are public URLs): a taken slug is 409 (field slug). Question types: text, email, number, choice (needs at least 2 distinct options; answers must be one of them), rating (integer 1 to 5). required defaults to true. Needs editor. Accepts Idempotency-Key.
         *
         *     Cookie service_token or Authorization: Bearer; role editor or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/questionnaires; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postQuestionnairesDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/questionnaires/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a questionnaire
         * @deprecated
         * @description With its questions. Another workspace's or a deleted questionnaire: 404.
         *
         *     Cookie service_token or Authorization: Bearer; role viewer or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/questionnaires/{id}; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getQuestionnairesIdDeprecated"];
        put?: never;
        post?: never;
        /**
         * Delete a questionnaire
         * @deprecated
         * @description Soft delete from any state, 204; afterwards it is 404 everywhere (and 409 on publish). Its sessions and answers are kept. Needs editor.
         *
         *     Cookie service_token or Authorization: Bearer; role editor or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/questionnaires/{id}; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        delete: operations["deleteQuestionnairesIdDeprecated"];
        options?: never;
        head?: never;
        /**
         * Change a draft
         * @deprecated
         * @description Changes title, slug and/or questions (questions replace the whole list; their ids change). Only a draft can change: otherwise 409 (field state). Needs editor.
         *
         *     Cookie service_token or Authorization: Bearer; role editor or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/questionnaires/{id}; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        patch: operations["patchQuestionnairesIdDeprecated"];
        trace?: never;
    };
    "/api/questionnaires/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a draft
         * @deprecated
         * @description draft -> published: visitors can then start sessions under its slug. A deleted questionnaire: 409 CONFLICT (field state), as is one that is not a draft; a draft without questions: 409 (field questions). Needs editor.
         *
         *     Cookie service_token or Authorization: Bearer; role editor or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/questionnaires/{id}/publish; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postQuestionnairesIdPublishDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/questionnaires/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a published questionnaire
         * @deprecated
         * @description published -> closed: no new sessions and no further answers. Otherwise 409 (field state). Needs editor.
         *
         *     Cookie service_token or Authorization: Bearer; role editor or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/questionnaires/{id}/close; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postQuestionnairesIdCloseDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/q/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a published questionnaire
         * @deprecated
         * @description Title and questions (ids, titles, types, options, required) of a published questionnaire; a draft, closed, deleted or unknown slug: 404. CORS: any origin.
         *
         *     No authentication; rate limited per client address.
         *
         *     Deprecated unprefixed alias of /api/v1/public/q/{slug}; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getPublicQSlugDeprecated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/q/{slug}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a session
         * @deprecated
         * @description Starts a visitor's session on a published questionnaire, 201 {sessionId}. name, email (an e-mail address) and loaded_at (epoch ms when the form was loaded) are all required; loaded_at more than 5 minutes in the future or older than 24 hours: 400 (field loaded_at). sessionId is a random integer below 2^53. A closed, draft or unknown questionnaire: 404. Emits session.started. Accepts Idempotency-Key.
         *
         *     No authentication; rate limited per client address.
         *
         *     Deprecated unprefixed alias of /api/v1/public/q/{slug}/sessions; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postPublicQSlugSessionsDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/q/{slug}/sessions/{sessionId}/answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer a question
         * @deprecated
         * @description Stores the answer to one question, 201 {success, isComplete, progress}. The answer to the last open question completes the session. Unknown session: 404; a questionId not in this questionnaire: 404 (field questionId); a second answer to a question: 409 (field questionId); a completed session or a closed questionnaire: 409; an answer invalid for the question type: 400 (field answerText; empty only when not required); over the workspace's monthly answers: 422 (field plan.answers_per_month), nothing stored. Emits answer.submitted, and session.completed once. Accepts Idempotency-Key.
         *
         *     No authentication; rate limited per client address.
         *
         *     Deprecated unprefixed alias of /api/v1/public/q/{slug}/sessions/{sessionId}/answers; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postPublicQSlugSessionsSessionIdAnswersDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a checkout for a paid plan
         * @deprecated
         * @description Creates a pending checkout for the request's workspace: plan `pro` (100,000 answers per month) or `business` (unlimited), interval `month` or `year`. Answers 201 `{id, plan, interval, status, checkout_url, ...}`; the customer pays at `checkout_url`. The plan switches when the payment provider reports the payment; with the built-in manual provider the operator runs `deno task admin billing complete <id>` and `checkout_url` is this checkout's status resource. A checkout for the plan the workspace already has: 409 (field plan). Accepts Idempotency-Key: a replay creates no second checkout.
         *
         *     Cookie service_token or Authorization: Bearer; role owner or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/billing/checkout; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postBillingCheckoutDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/checkouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A checkout's status
         * @deprecated
         * @description pending until the payment is reported, then completed (the workspace's plan has switched). A checkout of another workspace: 404.
         *
         *     Cookie service_token or Authorization: Bearer; role owner or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/billing/checkouts/{id}; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getBillingCheckoutsIdDeprecated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export a questionnaire's answers
         * @deprecated
         * @description Creates an export of the sessions and answers of a questionnaire of the workspace (admin or owner), as of this moment: sessions started and answers given later are left out, so every download of it holds the same rows. Answers 202 with the export, whose status is `ready` at once: the file is produced while it is downloaded (streamed from the database, so any size exports in bounded memory). A questionnaire of another workspace, or deleted: 404 (field questionnaire_id). Accepts Idempotency-Key.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/exports; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postExportsDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An export's status
         * @deprecated
         * @description The export (admin or owner). An export of another workspace: 404.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/exports/{id}; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getExportsIdDeprecated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an export
         * @deprecated
         * @description Streams the file. CSV (text/csv, UTF-8 with BOM, RFC 4180: CRLF line breaks, fields with a comma, quote or line break quoted, quotes doubled): a header row `session_id,name,email,started_at,completed_at` followed by one column per question (its title, in question order), then one row per session in session id order; an unanswered question is an empty field. Any field that starts with `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'` so that spreadsheets do not run it as a formula. NDJSON (application/x-ndjson): one object per session `{session_id, name, email, started_at, completed_at, answers: {<question id>: text}}`, values unchanged.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/exports/{id}/download; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getExportsIdDownloadDeprecated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @deprecated
         * @description The workspace's webhooks, newest first (the signing secret is shown only when creating or rotating). Needs admin.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/webhooks; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getWebhooksDeprecated"];
        put?: never;
        /**
         * Create a webhook
         * @deprecated
         * @description Subscribes a URL to the workspace's events (default: all three), 201 with the workspace's signing_secret. The URL must be https and its host must be, and resolve only to, public addresses (no loopback, private, CGNAT, link-local, unique-local or multicast ranges, IPv4 or IPv6, nor IPv4-mapped forms); the same check runs again before every delivery, against the name's current resolution, and the connection goes to the address that passed it. WEBHOOK_ALLOW_PRIVATE_TARGETS=1 lifts this (http and private targets, for development). A refused URL, or a host name that does not resolve: 400 (field url). At most 20 webhooks per workspace (422). Needs admin. Accepts Idempotency-Key. Every delivery is a POST of `{id, type, created_at, workspace_id, data}` with x-service-signature (hex HMAC-SHA256 of the raw body, keyed with the signing secret string as shown), x-service-event, x-service-delivery (the delivery id), x-service-timestamp (epoch seconds of the attempt), and the Standard Webhooks headers webhook-id (the event id, the same on every retry), webhook-timestamp and webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>", keyed with the base64-decoded part after whsec_, as the standardwebhooks libraries do). For 24 h after a rotation both secrets sign: x-service-signature then holds two comma-separated digests and webhook-signature two space-separated entries, the new secret's first; accept the delivery when any matches. data.sequence numbers the events of one session (deliveries run concurrently and may arrive out of order or, after a crash, twice: deduplicate by id).
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/webhooks; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postWebhooksDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @deprecated
         * @description Deletes the webhook with its delivery log, 204; pending deliveries are dropped (an attempt already in flight may still arrive). Needs admin.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/webhooks/{id}; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        delete: operations["deleteWebhooksIdDeprecated"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Delivery log of a webhook
         * @deprecated
         * @description Deliveries, newest first, each with its status (pending, succeeded, failed), number of attempts, last response code, time and error, the next attempt (null once settled) and attempt_log, every attempt made. Retries follow WEBHOOK_RETRY_DELAYS (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h; each ±10 % jitter), or a later Retry-After on 429/503 (at most 24 h); 2xx succeeds; a redirect, another status, a timeout (10 s) or a refused target fails the attempt; 410 Gone fails it and disables the webhook. After the last scheduled attempt the delivery is failed and stays here. Optional filter status. Needs admin.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/webhooks/{id}/deliveries; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        get: operations["getWebhooksIdDeliveriesDeprecated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a delivery now
         * @deprecated
         * @description Makes the delivery due now, 202, whatever its status: a pending one skips its wait, a failed or succeeded one is sent again (same event id and body). Attempts keep counting, so a delivery past its schedule gets this one attempt and is failed again if it fails. While it is being attempted: 409; a disabled webhook: 409. Needs admin.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/webhooks/{id}/deliveries/{deliveryId}/retry; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postWebhooksIdDeliveriesDeliveryIdRetryDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test ping
         * @deprecated
         * @description Queues a signed `ping` event to this webhook, 202 with its delivery (follow it in the delivery log; it is retried like any event). Body: {id, type: "ping", created_at, workspace_id, data: {webhook_id}}. A disabled webhook: 409. Needs admin. Accepts Idempotency-Key.
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/webhooks/{id}/test; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postWebhooksIdTestDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspace/signing-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the webhook signing secret
         * @deprecated
         * @description Replaces the workspace's signing secret, 200 with the new one. For 24 h the previous secret also signs every delivery (both signatures are sent), so receivers can switch without losing deliveries; a second rotation within that time ends the grace of the oldest secret. Needs admin. Accepts Idempotency-Key (a retried rotation must not rotate twice).
         *
         *     Cookie service_token or Authorization: Bearer; role admin or higher in the workspace of X-Workspace-Id (default: the user's first workspace).
         *
         *     Deprecated unprefixed alias of /api/v1/workspace/signing-secret/rotate; removed after 2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.
         */
        post: operations["postWorkspaceSigningSecretRotateDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "session.started": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A session started
         * @description Sent when a visitor starts a session on a published questionnaire.
         */
        post: operations["webhookSessionStarted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "answer.submitted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An answer was submitted
         * @description Sent for every stored answer.
         */
        post: operations["webhookAnswerSubmitted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A session completed
         * @description Sent once, when the last open question of a session is answered; it follows that answer's answer.submitted (sequence one higher).
         */
        post: operations["webhookSessionCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    ping: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test ping
         * @description Sent by POST /api/v1/webhooks/{id}/test, signed like every event.
         */
        post: operations["webhookPing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @example {
         *       "success": true,
         *       "isComplete": false,
         *       "progress": {
         *         "answered": 1,
         *         "total": 2
         *       }
         *     }
         */
        AnswerResult: {
            success: boolean;
            isComplete: boolean;
            progress: components["schemas"]["Progress"];
        };
        AnswerSubmission: {
            /** @example 101 */
            questionId: number;
            /** @example Radio */
            answerText: string;
        };
        /** @description A question of a session was answered. id: The event id (also webhook-id): the same on every retry; deduplicate by it. */
        AnswerSubmittedEvent: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            type: "answer.submitted";
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            workspace_id: string;
            data: {
                /** Format: uuid */
                questionnaire_id: string;
                /** @example customer-feedback */
                questionnaire_slug: string;
                /** @example 4503599627370497 */
                session_id: number;
                /** @description Numbers the events of one session from 1; deliveries may arrive out of order, so order by it. */
                sequence: number;
                progress: components["schemas"]["Progress"];
                question_id: number;
                /** @description The answer as stored (empty for a skipped optional one). */
                answer: string;
            };
        };
        Brand: {
            /** @example brand-7 */
            id: string;
            /** @example Fresh Cola */
            name: string;
        };
        Checkout: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            plan: "pro" | "business";
            /** @enum {string} */
            interval: "month" | "year";
            /** @enum {string} */
            status: "pending" | "completed" | "canceled";
            /**
             * @description Where the customer pays.
             * @example https://forms.example.com/api/v1/billing/checkouts/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c
             */
            checkout_url: string;
            /** @example manual */
            provider: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            completed_at: string | null;
        };
        CheckoutRequest: {
            /** @enum {string} */
            plan: "pro" | "business";
            /** @enum {string} */
            interval: "month" | "year";
        };
        Coverage: {
            data: components["schemas"]["StationCoverage"][];
            meta: {
                period: components["schemas"]["Period"] | null;
                requested_period: components["schemas"]["Period"] | null;
                /**
                 * Format: date-time
                 * @description exported_at of the newest approved snapshot contributing data to the account's scope; null when none does.
                 */
                snapshot_exported_at: string | null;
                /** @example Coverage counts only captures linked to the data granted to this account (its stations, within its period); it does not measure continuous operation of a station. An absence of captures or occurrences does not prove that no advertisement aired. */
                notice: string;
                limits: {
                    /** @example 300 */
                    gap_threshold_seconds: number;
                    /** @example 7 */
                    default_period_days: number;
                    /** @example 31 */
                    max_period_days: number;
                };
                provenance: {
                    /** @example 2026-11-19 */
                    snapshot_id: string;
                    /** Format: date-time */
                    exported_at: string;
                }[];
            };
        };
        /** @description A stretch without captures longer than the gap threshold. */
        CoverageGap: {
            /** Format: date-time */
            since: string;
            /** Format: date-time */
            until: string;
            /** @example 900 */
            seconds: number;
        };
        Credentials: {
            /** Format: email */
            email: string;
            /** @example correct horse battery staple */
            password: string;
        };
        Delivery: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            webhook_id: string;
            /** Format: uuid */
            event_id: string;
            /** @enum {string} */
            event_type: "session.started" | "answer.submitted" | "session.completed" | "ping";
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempts: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            last_attempt_at: string | null;
            /** @example 200 */
            last_response_code: number | null;
            /** @example timeout after 10 s */
            last_error: string | null;
            /**
             * Format: date-time
             * @description null once succeeded or failed.
             */
            next_attempt_at: string | null;
            attempt_log: components["schemas"]["DeliveryAttempt"][];
        };
        DeliveryAttempt: {
            attempt: number;
            /** Format: date-time */
            started_at: string;
            /** @example 84 */
            duration_ms: number;
            /** @example 200 */
            response_code: number | null;
            /** @example timeout after 10 s */
            error: string | null;
        };
        DeliveryPage: {
            data: components["schemas"]["Delivery"][];
            /**
             * @description Opaque cursor of the next page; null on the last page.
             * @example eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl
             */
            next_cursor: string | null;
            has_more: boolean;
        };
        /**
         * @description The error envelope of every error of both APIs.
         * @example {
         *       "error": {
         *         "code": "NOT_FOUND",
         *         "message": "No such questionnaire.",
         *         "field": null,
         *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
         *       }
         *     }
         */
        Error: {
            error: {
                /** @enum {string} */
                code: "VALIDATION_FAILED" | "UNAUTHENTICATED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "UNPROCESSABLE" | "RATE_LIMITED" | "INTERNAL" | "DEGRADED" | "UNAVAILABLE";
                /** @description What to change, in one or two sentences. */
                message: string;
                /** @description The request field at fault, if one is. */
                field: string | null;
                /** @description Equals the X-Trace-Id response header. */
                trace_id: string;
            };
        };
        Export: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            questionnaire_id: string;
            /** @enum {string} */
            format: "csv" | "ndjson";
            /** @enum {string} */
            status: "ready";
            /**
             * @description Sessions the export holds.
             * @example 1
             */
            sessions: number;
            /**
             * Format: date-time
             * @description Data up to this moment is included.
             */
            as_of: string;
            /** Format: date-time */
            created_at: string;
            /**
             * @description Path of the download, relative to the service.
             * @example /api/v1/exports/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c/download
             */
            download_url: string;
        };
        ExportRequest: {
            /** Format: uuid */
            questionnaire_id: string;
            /** @enum {string} */
            format: "csv" | "ndjson";
        };
        Member: {
            /** Format: uuid */
            user_id: string;
            /** Format: email */
            email: string;
            /** @example Ana Lima */
            name: string;
            /** @enum {string} */
            role: "viewer" | "editor" | "admin" | "owner";
            /** Format: date-time */
            created_at: string;
        };
        MemberPage: {
            data: components["schemas"]["Member"][];
            /**
             * @description Opaque cursor of the next page; null on the last page.
             * @example eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl
             */
            next_cursor: string | null;
            has_more: boolean;
        };
        NewMember: {
            /** Format: email */
            email: string;
            /** @enum {string} */
            role: "viewer" | "editor" | "admin" | "owner";
        };
        /**
         * @example {
         *       "title": "Customer feedback",
         *       "slug": "customer-feedback",
         *       "questions": [
         *         {
         *           "title": "How did you hear about us?",
         *           "type": "choice",
         *           "required": true,
         *           "options": [
         *             "Radio",
         *             "A friend"
         *           ]
         *         },
         *         {
         *           "title": "How likely are you to recommend us?",
         *           "type": "rating",
         *           "required": false
         *         }
         *       ]
         *     }
         */
        NewQuestionnaire: {
            /** @example Customer feedback */
            title: string;
            /** @example customer-feedback */
            slug?: string;
            /** @default [] */
            questions?: components["schemas"]["QuestionInput"][];
        };
        NewToken: {
            /** Format: uuid */
            id: string;
            /** @example nightly export */
            name: string;
            /**
             * @description The bearer token; shown only in this answer.
             * @example onda_pat_3q2v9Yk0bW7cQmR1sT5uXzA8dE4fG6hJ2kL0nP9rS1t
             */
            token: string;
            /** Format: date-time */
            created_at: string;
        };
        NewWebhook: {
            /** Format: uuid */
            id: string;
            /** @example https://example.com/hooks/onda */
            url: string;
            events: ("session.started" | "answer.submitted" | "session.completed")[];
            /** @enum {string} */
            status: "active" | "disabled";
            /** Format: date-time */
            disabled_at: string | null;
            /** @example The receiver answered 410 Gone. */
            disabled_reason: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * @description The workspace's signing secret.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3tw6R7yR0oA=
             */
            signing_secret: string;
        };
        Occurrence: {
            /** Format: uuid */
            id: string;
            /** @example radio-nord */
            station_id: string;
            /** @example Radio Nord */
            station_name: string;
            /** Format: date-time */
            ad_started_at: string;
            /** Format: date-time */
            ad_ended_at: string;
            /** @example 30 */
            duration_seconds: number;
            /** @enum {string} */
            duration_precision: "estimated" | "detected" | "human_confirmed";
            /** @enum {string} */
            review_state: "confirmed";
            /** @description Only the granted brands. */
            brands: components["schemas"]["Brand"][];
        };
        OccurrencePage: {
            data: components["schemas"]["Occurrence"][];
            meta: {
                /** @example 50 */
                limit: number;
                /** @example 0 */
                offset: number;
                /** @example 1 */
                total: number;
                has_more: boolean;
                period: components["schemas"]["Period"] | null;
                requested_period: components["schemas"]["Period"] | null;
                /**
                 * Format: date-time
                 * @description exported_at of the newest approved snapshot contributing data to the account's scope; null when none does.
                 */
                snapshot_exported_at: string | null;
                /** @example An empty or short result does not prove that no advertisement aired: only confirmed occurrences of approved snapshots within this account's scope are listed. Check the period, the coverage (/api/v1/coverage), the freshness of the source (snapshot_exported_at) and the data limits. */
                notice: string;
            };
        };
        /**
         * @example {
         *       "since": "2026-11-13T00:00:00Z",
         *       "until": "2026-11-20T00:00:00Z"
         *     }
         */
        Period: {
            /**
             * Format: date-time
             * @description Inclusive.
             */
            since: string;
            /**
             * Format: date-time
             * @description Exclusive.
             */
            until: string;
        };
        /** @description The test ping of POST /api/v1/webhooks/{id}/test; sent to that webhook only. */
        PingEvent: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            type: "ping";
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            workspace_id: string;
            data: {
                /** Format: uuid */
                webhook_id: string;
            };
        };
        Progress: {
            /**
             * @description Answers given so far.
             * @example 1
             */
            answered: number;
            /**
             * @description Questions in the questionnaire.
             * @example 2
             */
            total: number;
        };
        PublicQuestionnaire: {
            /** @example Customer feedback */
            title: string;
            /** @example customer-feedback */
            slug: string;
            questions: components["schemas"]["Question"][];
        };
        Question: {
            /** @example 101 */
            id: number;
            /** @example How did you hear about us? */
            title: string;
            /** @enum {string} */
            type: "text" | "email" | "number" | "choice" | "rating";
            required: boolean;
            /** @description choice only; else null. */
            options: string[] | null;
        };
        QuestionInput: {
            /** @example How did you hear about us? */
            title: string;
            /** @enum {string} */
            type: "text" | "email" | "number" | "choice" | "rating";
            /** @default true */
            required?: boolean;
            /** @description choice only: at least 2 distinct options. */
            options?: string[];
        };
        Questionnaire: {
            /** Format: uuid */
            id: string;
            /** @example Customer feedback */
            title: string;
            /** @example customer-feedback */
            slug: string;
            /** @enum {string} */
            state: "draft" | "published" | "closed" | "deleted";
            /** @example 2 */
            question_count: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            published_at: string | null;
            /** Format: date-time */
            closed_at: string | null;
            questions: components["schemas"]["Question"][];
        };
        /**
         * @example {
         *       "title": "Customer feedback 2026",
         *       "questions": [
         *         {
         *           "title": "How did you hear about us?",
         *           "type": "choice",
         *           "required": true,
         *           "options": [
         *             "Radio",
         *             "A friend"
         *           ]
         *         },
         *         {
         *           "title": "How likely are you to recommend us?",
         *           "type": "rating",
         *           "required": false
         *         }
         *       ]
         *     }
         */
        QuestionnaireChange: {
            /** @example Customer feedback */
            title?: string;
            /** @example customer-feedback */
            slug?: string;
            questions?: components["schemas"]["QuestionInput"][];
        };
        QuestionnaireSummary: {
            /** Format: uuid */
            id: string;
            /** @example Customer feedback */
            title: string;
            /** @example customer-feedback */
            slug: string;
            /** @enum {string} */
            state: "draft" | "published" | "closed" | "deleted";
            /** @example 2 */
            question_count: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            published_at: string | null;
            /** Format: date-time */
            closed_at: string | null;
        };
        QuestionnaireSummaryPage: {
            data: components["schemas"]["QuestionnaireSummary"][];
            /**
             * @description Opaque cursor of the next page; null on the last page.
             * @example eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl
             */
            next_cursor: string | null;
            has_more: boolean;
        };
        Registration: {
            /** Format: email */
            email: string;
            /**
             * @description At least 8 characters.
             * @example correct horse battery staple
             */
            password: string;
            /** @example Ana Lima */
            name: string;
        };
        Respondent: {
            /** @example Ana Lima */
            name: string;
            /** Format: email */
            email: string;
        };
        RoleChange: {
            /** @enum {string} */
            role: "viewer" | "editor" | "admin" | "owner";
        };
        /** @description Every question of a session is answered; sent once per session. id: The event id (also webhook-id): the same on every retry; deduplicate by it. */
        SessionCompletedEvent: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            type: "session.completed";
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            workspace_id: string;
            data: {
                /** Format: uuid */
                questionnaire_id: string;
                /** @example customer-feedback */
                questionnaire_slug: string;
                /** @example 4503599627370497 */
                session_id: number;
                /** @description Numbers the events of one session from 1; deliveries may arrive out of order, so order by it. */
                sequence: number;
                progress: components["schemas"]["Progress"];
                respondent: components["schemas"]["Respondent"];
                answers: {
                    question_id: number;
                    answer: string;
                }[];
            };
        };
        SessionStart: {
            /** @example Ana Lima */
            name: string;
            /** Format: email */
            email: string;
            /**
             * @description Milliseconds since the Unix epoch.
             * @example 1795162500000
             */
            loaded_at: number;
        };
        /** @description A visitor started a session. id: The event id (also webhook-id): the same on every retry; deduplicate by it. */
        SessionStartedEvent: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            type: "session.started";
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            workspace_id: string;
            data: {
                /** Format: uuid */
                questionnaire_id: string;
                /** @example customer-feedback */
                questionnaire_slug: string;
                /** @example 4503599627370497 */
                session_id: number;
                /** @description Numbers the events of one session from 1; deliveries may arrive out of order, so order by it. */
                sequence: number;
                progress: components["schemas"]["Progress"];
                respondent: components["schemas"]["Respondent"];
            };
        };
        SignedIn: {
            user: components["schemas"]["User"];
            workspaces: components["schemas"]["WorkspaceMembership"][];
        };
        SigningSecret: {
            /**
             * @description The new signing secret.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3tw6R7yR0oA=
             */
            signing_secret: string;
            /**
             * Format: date-time
             * @description Until then the previous secret also signs.
             */
            previous_secret_expires_at: string;
        };
        StartedSession: {
            /** @example 4503599627370497 */
            sessionId: number;
        };
        Station: {
            /** @example radio-nord */
            id: string;
            /** @example Radio Nord */
            name: string;
        };
        StationCoverage: {
            /** @example radio-nord */
            station_id: string;
            /** @example Radio Nord */
            station_name: string;
            /** @example 12 */
            captures: number;
            /** @example 594000 */
            captured_seconds: number;
            /** @example 604800 */
            period_seconds: number;
            /** @example 0.982143 */
            coverage_ratio: number;
            /** Format: date-time */
            first_capture_at: string | null;
            /** Format: date-time */
            last_capture_at: string | null;
            gaps: components["schemas"]["CoverageGap"][];
        };
        Status: {
            /** @enum {string} */
            status: "ok" | "degraded" | "maintenance";
            /** @example 0.1.0 */
            version: string;
            /**
             * Format: date-time
             * @description maintenance only: when it ends; null = until switched off.
             */
            until?: string | null;
            checks: {
                /** @enum {string} */
                database: "ok" | "unavailable";
            };
        };
        Summary: {
            data: {
                totals: {
                    /** @example 42 */
                    occurrences: number;
                    /** @example 1260 */
                    duration_seconds: number;
                    /** @example 600 */
                    human_confirmed_duration_seconds: number;
                };
                by_station: {
                    /** @example radio-nord */
                    station_id: string;
                    /** @example Radio Nord */
                    station_name: string;
                    /** @example 42 */
                    occurrences: number;
                    /** @example 1260 */
                    duration_seconds: number;
                    /** @example 600 */
                    human_confirmed_duration_seconds: number;
                }[];
                by_brand: {
                    /** @example brand-7 */
                    brand_id: string;
                    /** @example Fresh Cola */
                    brand_name: string;
                    /** @example 42 */
                    occurrences: number;
                    /** @example 1260 */
                    duration_seconds: number;
                    /** @example 600 */
                    human_confirmed_duration_seconds: number;
                }[];
                by_day: {
                    /**
                     * Format: date
                     * @description A UTC date the effective period touches.
                     */
                    date: string;
                    /** @example 42 */
                    occurrences: number;
                    /** @example 1260 */
                    duration_seconds: number;
                }[];
            };
            meta: {
                period: components["schemas"]["Period"] | null;
                requested_period: components["schemas"]["Period"] | null;
                /**
                 * Format: date-time
                 * @description exported_at of the newest approved snapshot contributing data to the account's scope; null when none does.
                 */
                snapshot_exported_at: string | null;
                /** @example An empty or short result does not prove that no advertisement aired: only confirmed occurrences of approved snapshots within this account's scope are listed. Check the period, the coverage (/api/v1/coverage), the freshness of the source (snapshot_exported_at) and the data limits. */
                notice: string;
            };
        };
        Token: {
            /** Format: uuid */
            id: string;
            /** @example nightly export */
            name: string;
            /** Format: date-time */
            created_at: string;
        };
        TokenPage: {
            data: components["schemas"]["Token"][];
            /**
             * @description Opaque cursor of the next page; null on the last page.
             * @example eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl
             */
            next_cursor: string | null;
            has_more: boolean;
        };
        TokenRequest: {
            /** @example nightly export */
            name: string;
        };
        User: {
            /** Format: uuid */
            id: string;
            /** Format: email */
            email: string;
            /** @example Ana Lima */
            name: string;
        };
        Webhook: {
            /** Format: uuid */
            id: string;
            /** @example https://example.com/hooks/onda */
            url: string;
            events: ("session.started" | "answer.submitted" | "session.completed")[];
            /** @enum {string} */
            status: "active" | "disabled";
            /** Format: date-time */
            disabled_at: string | null;
            /** @example The receiver answered 410 Gone. */
            disabled_reason: string | null;
            /** Format: date-time */
            created_at: string;
        };
        WebhookPage: {
            data: components["schemas"]["Webhook"][];
            /**
             * @description Opaque cursor of the next page; null on the last page.
             * @example eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl
             */
            next_cursor: string | null;
            has_more: boolean;
        };
        WebhookRequest: {
            /** @example https://example.com/hooks/onda */
            url: string;
            events?: ("session.started" | "answer.submitted" | "session.completed")[];
        };
        Whoami: {
            data: {
                account: {
                    /** @example acme-media */
                    id: string;
                    /** @example Acme Media */
                    name: string;
                };
                key: {
                    /** Format: uuid */
                    id: string;
                    /** @example onda_ads_Q3vx */
                    prefix: string;
                    /** @example reporting script */
                    label: string | null;
                    /** Format: date-time */
                    created_at: string;
                };
                permissions: ("ads:read" | "reports:read" | "coverage:read")[];
                scope: {
                    stations: components["schemas"]["Station"][];
                    brands: components["schemas"]["Brand"][];
                    period: components["schemas"]["Period"] | null;
                };
                limits: {
                    /** @example 60 */
                    requests_per_minute: number;
                    /** @example 7 */
                    default_period_days: number;
                    /** @example 31 */
                    max_period_days: number;
                    limit: {
                        /** @example 1 */
                        min: number;
                        /** @example 100 */
                        max: number;
                        /** @example 50 */
                        default: number;
                    };
                    offset: {
                        /** @example 0 */
                        min: number;
                        /** @example 100000 */
                        max: number;
                        /** @example 0 */
                        default: number;
                    };
                };
            };
        };
        Workspace: {
            /** Format: uuid */
            id: string;
            /** @example Ana Lima's workspace */
            name: string;
            /** @enum {string} */
            role: "viewer" | "editor" | "admin" | "owner";
            allowed_origins: string[];
            /** @enum {string} */
            plan: "free" | "pro" | "business";
            usage: {
                /**
                 * Format: date
                 * @description First day of the calendar month (UTC).
                 */
                month: string;
                /** @example 120 */
                answers: number;
                /**
                 * @description null = unlimited.
                 * @example 1000
                 */
                answers_limit: number | null;
            };
        };
        WorkspaceChange: {
            /** @example Customer research */
            name?: string;
            allowed_origins?: string[];
        };
        /** @description A workspace the user belongs to, with the user's role there. */
        WorkspaceMembership: {
            /** Format: uuid */
            id: string;
            /** @example Ana Lima's workspace */
            name: string;
            /** @enum {string} */
            role: "viewer" | "editor" | "admin" | "owner";
            /** @enum {string} */
            plan: "free" | "pro" | "business";
        };
    };
    responses: {
        /** @description Invalid request (VALIDATION_FAILED); error.field names the offending field. */
        BadRequest: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "VALIDATION_FAILED",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Incompatible state (CONFLICT), or the same Idempotency-Key still in progress. */
        Conflict: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "CONFLICT",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Authenticated, but not allowed (FORBIDDEN). */
        Forbidden: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "FORBIDDEN",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Internal error (INTERNAL); retry with exponential backoff, at most 3 times. The forms API also answers so when its database cannot be reached. */
        InternalError: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "INTERNAL",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description This path does not accept the request's method (METHOD_NOT_ALLOWED); Allow lists the methods it does. */
        MethodNotAllowed: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                Allow: components["headers"]["Allow"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "METHOD_NOT_ALLOWED",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No such resource, or not visible to the caller (NOT_FOUND). */
        NotFound: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "NOT_FOUND",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Body over 64 KiB (PAYLOAD_TOO_LARGE). */
        PayloadTooLarge: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "PAYLOAD_TOO_LARGE",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Maintenance window or degraded mode (DEGRADED), or, on the ads API, a database that cannot be reached or has not answered within ADS_DATABASE_TIMEOUT_MS (UNAVAILABLE); retry after Retry-After seconds. */
        ServiceUnavailable: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "DEGRADED",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rate limit exceeded (RATE_LIMITED); retry after Retry-After seconds. */
        TooManyRequests: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "RATE_LIMITED",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing, invalid, expired or revoked credentials (UNAUTHENTICATED). */
        Unauthorized: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "UNAUTHENTICATED",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rejected by a business rule, the same Idempotency-Key with another body, or (ads API) an invalid query parameter (UNPROCESSABLE); error.field gives detail. */
        Unprocessable: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "UNPROCESSABLE",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Body is not application/json (UNSUPPORTED_MEDIA_TYPE). */
        UnsupportedMediaType: {
            headers: {
                "X-Trace-Id": components["headers"]["X-Trace-Id"];
                "X-API-Version": components["headers"]["X-API-Version"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "UNSUPPORTED_MEDIA_TYPE",
                 *         "message": "See error.message.",
                 *         "field": null,
                 *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
        "Idempotency-Key": string;
        /** @description Standard Webhooks: the event id, the same on every retry. */
        "webhook-id": string;
        /** @description Standard Webhooks: "v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body}>", keyed with the base64-decoded part of the secret after whsec_ (what the standardwebhooks libraries do with the same secret string). After a rotation: two space-separated entries, the new secret's first. */
        "webhook-signature": string;
        /** @description Standard Webhooks: epoch seconds of this attempt; reject old ones to stop replays. */
        "webhook-timestamp": string;
        /** @description The delivery id (one per webhook and event). */
        "x-service-delivery": string;
        /** @description The event type. */
        "x-service-event": string;
        /** @description Hex HMAC-SHA256 of the raw body, keyed with the signing secret string exactly as the API shows it (whsec_...). For 24 h after a rotation: two comma-separated digests, the new secret's first; accept the delivery when any matches. */
        "x-service-signature": string;
        /** @description Epoch seconds of this attempt. */
        "x-service-timestamp": string;
        /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
        "X-Workspace-Id": string;
    };
    requestBodies: never;
    headers: {
        /** @description The methods this path accepts. */
        Allow: string;
        /** @description true on the deprecated unprefixed /api/... paths. */
        Deprecation: "true";
        /** @description true when this is the stored answer to an earlier request with the same Idempotency-Key (nothing was done again). */
        "Idempotent-Replayed": "true";
        /** @description The /api/v1/ successor of a deprecated path: <...>; rel="successor-version"; type="application/json". */
        Link: string;
        /** @description The IETF draft's state, like "per-key";r=59;t=60 (remaining, seconds to reset). */
        RateLimit: string;
        /** @description The IETF draft's policy, like "per-key";q=60;w=60. */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description When the deprecated unprefixed path stops answering (an HTTP date). */
        Sunset: "Thu, 31 Dec 2026 23:59:59 GMT";
        /** @description Bearer realm="ads" on the ads API. */
        "WWW-Authenticate": string;
        /** @description v1 on every /api/v1/ path and its deprecated alias. */
        "X-API-Version": "v1";
        /** @description Requests allowed in any rolling 60-second window for this key, user or address. */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the current window. */
        "X-RateLimit-Remaining": number;
        /** @description Epoch seconds when the oldest counted request leaves the window. */
        "X-RateLimit-Reset": number;
        /** @description The trace id of this request (from a valid traceparent, else new); the log line and error.trace_id carry the same. */
        "X-Trace-Id": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "version": "0.1.0",
                     *       "checks": {
                     *         "database": "ok"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Status"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            /** @description Degraded or in maintenance. */
            503: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "degraded",
                     *       "version": "0.1.0",
                     *       "checks": {
                     *         "database": "unavailable"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Status"];
                };
            };
        };
    };
    getApiOpenapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    /** @description SemVer of the document */
                    "X-Spec-Version"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.1.0",
                     *       "info": {
                     *         "title": "Onda API",
                     *         "version": "1.1.0"
                     *       }
                     *     }
                     */
                    "application/json": unknown;
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWhoami: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "account": {
                     *           "id": "acme-media",
                     *           "name": "Acme Media"
                     *         },
                     *         "key": {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "prefix": "onda_ads_Q3vx",
                     *           "label": "reporting script",
                     *           "created_at": "2026-11-20T08:15:30Z"
                     *         },
                     *         "permissions": [
                     *           "ads:read"
                     *         ],
                     *         "scope": {
                     *           "stations": [
                     *             {
                     *               "id": "radio-nord",
                     *               "name": "Radio Nord"
                     *             }
                     *           ],
                     *           "brands": [
                     *             {
                     *               "id": "brand-7",
                     *               "name": "Fresh Cola"
                     *             }
                     *           ],
                     *           "period": {
                     *             "since": "2026-11-13T00:00:00Z",
                     *             "until": "2026-11-20T00:00:00Z"
                     *           }
                     *         },
                     *         "limits": {
                     *           "requests_per_minute": 60,
                     *           "default_period_days": 7,
                     *           "max_period_days": 31,
                     *           "limit": {
                     *             "min": 1,
                     *             "max": 100,
                     *             "default": 50
                     *           },
                     *           "offset": {
                     *             "min": 0,
                     *             "max": 100000,
                     *             "default": 0
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Whoami"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAds: {
        parameters: {
            query?: {
                /** @description Start of the period (inclusive); default until minus 7 days. */
                since?: string;
                /** @description End of the period (exclusive); default now. At most 31 days. */
                until?: string;
                /** @description Only this station; it must be in the account's scope (else 404). */
                station_id?: string;
                /** @description Only this brand; it must be in the account's scope (else 404). */
                brand_id?: string;
                /** @description Page size. */
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "station_id": "radio-nord",
                     *           "station_name": "Radio Nord",
                     *           "ad_started_at": "2026-11-20T08:15:30Z",
                     *           "ad_ended_at": "2026-11-20T08:15:30Z",
                     *           "duration_seconds": 30,
                     *           "duration_precision": "estimated",
                     *           "review_state": "confirmed",
                     *           "brands": [
                     *             {
                     *               "id": "brand-7",
                     *               "name": "Fresh Cola"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "meta": {
                     *         "limit": 50,
                     *         "offset": 0,
                     *         "total": 1,
                     *         "has_more": true,
                     *         "period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "requested_period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "snapshot_exported_at": "2026-11-20T08:15:30Z",
                     *         "notice": "An empty or short result does not prove that no advertisement aired: only confirmed occurrences of approved snapshots within this account's scope are listed. Check the period, the coverage (/api/v1/coverage), the freshness of the source (snapshot_exported_at) and the data limits."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["OccurrencePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getReportsSummary: {
        parameters: {
            query?: {
                /** @description Start of the period (inclusive); default until minus 7 days. */
                since?: string;
                /** @description End of the period (exclusive); default now. At most 31 days. */
                until?: string;
                /** @description Only this station; it must be in the account's scope (else 404). */
                station_id?: string;
                /** @description Only this brand; it must be in the account's scope (else 404). */
                brand_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The summary. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "totals": {
                     *           "occurrences": 42,
                     *           "duration_seconds": 1260,
                     *           "human_confirmed_duration_seconds": 600
                     *         },
                     *         "by_station": [
                     *           {
                     *             "station_id": "radio-nord",
                     *             "station_name": "Radio Nord",
                     *             "occurrences": 42,
                     *             "duration_seconds": 1260,
                     *             "human_confirmed_duration_seconds": 600
                     *           }
                     *         ],
                     *         "by_brand": [
                     *           {
                     *             "brand_id": "brand-7",
                     *             "brand_name": "Fresh Cola",
                     *             "occurrences": 42,
                     *             "duration_seconds": 1260,
                     *             "human_confirmed_duration_seconds": 600
                     *           }
                     *         ],
                     *         "by_day": [
                     *           {
                     *             "date": "2026-11-20",
                     *             "occurrences": 42,
                     *             "duration_seconds": 1260
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "requested_period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "snapshot_exported_at": "2026-11-20T08:15:30Z",
                     *         "notice": "An empty or short result does not prove that no advertisement aired: only confirmed occurrences of approved snapshots within this account's scope are listed. Check the period, the coverage (/api/v1/coverage), the freshness of the source (snapshot_exported_at) and the data limits."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Summary"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCoverage: {
        parameters: {
            query?: {
                /** @description Start of the period (inclusive); default until minus 7 days. */
                since?: string;
                /** @description End of the period (exclusive); default now. At most 31 days. */
                until?: string;
                /** @description Only this station; it must be in the account's scope (else 404). */
                station_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Coverage per station. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "station_id": "radio-nord",
                     *           "station_name": "Radio Nord",
                     *           "captures": 12,
                     *           "captured_seconds": 594000,
                     *           "period_seconds": 604800,
                     *           "coverage_ratio": 0.982143,
                     *           "first_capture_at": "2026-11-20T08:15:30Z",
                     *           "last_capture_at": "2026-11-20T08:15:30Z",
                     *           "gaps": [
                     *             {
                     *               "since": "2026-11-20T08:15:30Z",
                     *               "until": "2026-11-20T08:15:30Z",
                     *               "seconds": 900
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "meta": {
                     *         "period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "requested_period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "snapshot_exported_at": "2026-11-20T08:15:30Z",
                     *         "notice": "Coverage counts only captures linked to the data granted to this account (its stations, within its period); it does not measure continuous operation of a station. An absence of captures or occurrences does not prove that no advertisement aired.",
                     *         "limits": {
                     *           "gap_threshold_seconds": 300,
                     *           "default_period_days": 7,
                     *           "max_period_days": 31
                     *         },
                     *         "provenance": [
                     *           {
                     *             "snapshot_id": "2026-11-19",
                     *             "exported_at": "2026-11-20T08:15:30Z"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Coverage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthRegister: {
        parameters: {
            query?: never;
            header?: {
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ana@example.com",
                 *       "password": "correct horse battery staple",
                 *       "name": "Ana Lima"
                 *     }
                 */
                "application/json": components["schemas"]["Registration"];
            };
        };
        responses: {
            /** @description Registered. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description service_token (HttpOnly; SameSite=Lax; Path=/; Secure behind https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user": {
                     *         "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *         "email": "ana@example.com",
                     *         "name": "Ana Lima"
                     *       },
                     *       "workspaces": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "name": "Ana Lima's workspace",
                     *           "role": "viewer",
                     *           "plan": "free"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            400: components["responses"]["BadRequest"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ana@example.com",
                 *       "password": "correct horse battery staple"
                 *     }
                 */
                "application/json": components["schemas"]["Credentials"];
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description service_token (HttpOnly; SameSite=Lax; Path=/; Secure behind https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user": {
                     *         "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *         "email": "ana@example.com",
                     *         "name": "Ana Lima"
                     *       },
                     *       "workspaces": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "name": "Ana Lima's workspace",
                     *           "role": "viewer",
                     *           "plan": "free"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthLogout: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description service_token (HttpOnly; SameSite=Lax; Path=/; Secure behind https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAuthTokens: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description next_cursor of the previous page (opaque). */
                cursor?: string;
            };
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "name": "nightly export",
                     *           "created_at": "2026-11-20T08:15:30Z"
                     *         }
                     *       ],
                     *       "next_cursor": "eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["TokenPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthTokens: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "nightly export"
                 *     }
                 */
                "application/json": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "name": "nightly export",
                     *       "token": "onda_pat_3q2v9Yk0bW7cQmR1sT5uXzA8dE4fG6hJ2kL0nP9rS1t",
                     *       "created_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["NewToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteAuthTokensId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWorkspace: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "name": "Ana Lima's workspace",
                     *       "role": "viewer",
                     *       "allowed_origins": [
                     *         "https://www.example.com"
                     *       ],
                     *       "plan": "free",
                     *       "usage": {
                     *         "month": "2026-11-20",
                     *         "answers": 120,
                     *         "answers_limit": 1000
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchWorkspace: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Customer research",
                 *       "allowed_origins": [
                 *         "https://www.example.com"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WorkspaceChange"];
            };
        };
        responses: {
            /** @description The workspace. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "name": "Ana Lima's workspace",
                     *       "role": "viewer",
                     *       "allowed_origins": [
                     *         "https://www.example.com"
                     *       ],
                     *       "plan": "free",
                     *       "usage": {
                     *         "month": "2026-11-20",
                     *         "answers": 120,
                     *         "answers_limit": 1000
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWorkspaceMembers: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description next_cursor of the previous page (opaque). */
                cursor?: string;
            };
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "user_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "email": "ana@example.com",
                     *           "name": "Ana Lima",
                     *           "role": "viewer",
                     *           "created_at": "2026-11-20T08:15:30Z"
                     *         }
                     *       ],
                     *       "next_cursor": "eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["MemberPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWorkspaceMembers: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ana@example.com",
                 *       "role": "viewer"
                 *     }
                 */
                "application/json": components["schemas"]["NewMember"];
            };
        };
        responses: {
            /** @description Added. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "email": "ana@example.com",
                     *       "name": "Ana Lima",
                     *       "role": "viewer",
                     *       "created_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWorkspaceMembersUserId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchWorkspaceMembersUserId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "role": "viewer"
                 *     }
                 */
                "application/json": components["schemas"]["RoleChange"];
            };
        };
        responses: {
            /** @description Changed. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "email": "ana@example.com",
                     *       "name": "Ana Lima",
                     *       "role": "viewer",
                     *       "created_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getQuestionnaires: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description next_cursor of the previous page (opaque). */
                cursor?: string;
                state?: "draft" | "published" | "closed";
            };
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "title": "Customer feedback",
                     *           "slug": "customer-feedback",
                     *           "state": "draft",
                     *           "question_count": 2,
                     *           "created_at": "2026-11-20T08:15:30Z",
                     *           "updated_at": "2026-11-20T08:15:30Z",
                     *           "published_at": "2026-11-20T08:15:30Z",
                     *           "closed_at": "2026-11-20T08:15:30Z"
                     *         }
                     *       ],
                     *       "next_cursor": "eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["QuestionnaireSummaryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postQuestionnaires: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Customer feedback",
                 *       "slug": "customer-feedback",
                 *       "questions": [
                 *         {
                 *           "title": "How did you hear about us?",
                 *           "type": "choice",
                 *           "required": true,
                 *           "options": [
                 *             "Radio",
                 *             "A friend"
                 *           ]
                 *         },
                 *         {
                 *           "title": "How likely are you to recommend us?",
                 *           "type": "rating",
                 *           "required": false
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["NewQuestionnaire"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "state": "draft",
                     *       "question_count": 2,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "updated_at": "2026-11-20T08:15:30Z",
                     *       "published_at": "2026-11-20T08:15:30Z",
                     *       "closed_at": "2026-11-20T08:15:30Z",
                     *       "questions": [
                     *         {
                     *           "id": 101,
                     *           "title": "How did you hear about us?",
                     *           "type": "text",
                     *           "required": true,
                     *           "options": [
                     *             "Radio"
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Questionnaire"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getQuestionnairesId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The questionnaire. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "state": "draft",
                     *       "question_count": 2,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "updated_at": "2026-11-20T08:15:30Z",
                     *       "published_at": "2026-11-20T08:15:30Z",
                     *       "closed_at": "2026-11-20T08:15:30Z",
                     *       "questions": [
                     *         {
                     *           "id": 101,
                     *           "title": "How did you hear about us?",
                     *           "type": "text",
                     *           "required": true,
                     *           "options": [
                     *             "Radio"
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Questionnaire"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteQuestionnairesId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchQuestionnairesId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Customer feedback 2026",
                 *       "questions": [
                 *         {
                 *           "title": "How did you hear about us?",
                 *           "type": "choice",
                 *           "required": true,
                 *           "options": [
                 *             "Radio",
                 *             "A friend"
                 *           ]
                 *         },
                 *         {
                 *           "title": "How likely are you to recommend us?",
                 *           "type": "rating",
                 *           "required": false
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["QuestionnaireChange"];
            };
        };
        responses: {
            /** @description The questionnaire. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "state": "draft",
                     *       "question_count": 2,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "updated_at": "2026-11-20T08:15:30Z",
                     *       "published_at": "2026-11-20T08:15:30Z",
                     *       "closed_at": "2026-11-20T08:15:30Z",
                     *       "questions": [
                     *         {
                     *           "id": 101,
                     *           "title": "How did you hear about us?",
                     *           "type": "text",
                     *           "required": true,
                     *           "options": [
                     *             "Radio"
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Questionnaire"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postQuestionnairesIdPublish: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Published. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "state": "draft",
                     *       "question_count": 2,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "updated_at": "2026-11-20T08:15:30Z",
                     *       "published_at": "2026-11-20T08:15:30Z",
                     *       "closed_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["QuestionnaireSummary"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postQuestionnairesIdClose: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Closed. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "state": "draft",
                     *       "question_count": 2,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "updated_at": "2026-11-20T08:15:30Z",
                     *       "published_at": "2026-11-20T08:15:30Z",
                     *       "closed_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["QuestionnaireSummary"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPublicQSlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The questionnaire. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "questions": [
                     *         {
                     *           "id": 101,
                     *           "title": "How did you hear about us?",
                     *           "type": "text",
                     *           "required": true,
                     *           "options": [
                     *             "Radio"
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PublicQuestionnaire"];
                };
            };
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postPublicQSlugSessions: {
        parameters: {
            query?: never;
            header?: {
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ana Lima",
                 *       "email": "ana@example.com",
                 *       "loaded_at": 1795162500000
                 *     }
                 */
                "application/json": components["schemas"]["SessionStart"];
            };
        };
        responses: {
            /** @description Started. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "sessionId": 4503599627370497
                     *     }
                     */
                    "application/json": components["schemas"]["StartedSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postPublicQSlugSessionsSessionIdAnswers: {
        parameters: {
            query?: never;
            header?: {
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                slug: string;
                sessionId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "questionId": 101,
                 *       "answerText": "Radio"
                 *     }
                 */
                "application/json": components["schemas"]["AnswerSubmission"];
            };
        };
        responses: {
            /** @description Stored. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "isComplete": false,
                     *       "progress": {
                     *         "answered": 1,
                     *         "total": 2
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEmbedJs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    /** @description Strong validator of the script bytes. */
                    ETag?: string;
                    /** @description public, max-age=300 */
                    "Cache-Control"?: string;
                    /** @description cross-origin */
                    "Cross-Origin-Resource-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example (() => { "use strict"; /* renders each script[data-form] ... *\/ })(); */
                    "text/javascript; charset=utf-8": string;
                };
            };
            /** @description Not modified (If-None-Match matched the ETag). */
            304: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    /** @description Strong validator of the script bytes. */
                    ETag?: string;
                    /** @description public, max-age=300 */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
        };
    };
    getTrySlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page, for any well-formed slug. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    /** @description default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example <!doctype html>
                     *     <html lang="en">
                     *     <head>
                     *     <meta charset="utf-8">
                     *     <title>Try questionnaire customer-feedback</title>
                     *     </head>
                     *     <body>
                     *     ...
                     *     </body>
                     *     </html>
                     */
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not a slug (1 to 128 letters, digits, dots, underscores or hyphens, starting with a letter or digit): no page is made (NOT_FOUND). */
            404: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "NOT_FOUND",
                     *         "message": "See error.message.",
                     *         "field": null,
                     *         "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
        };
    };
    postBillingCheckout: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "plan": "pro",
                 *       "interval": "month"
                 *     }
                 */
                "application/json": components["schemas"]["CheckoutRequest"];
            };
        };
        responses: {
            /** @description Pending checkout. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description The checkout's status resource. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "plan": "pro",
                     *       "interval": "month",
                     *       "status": "pending",
                     *       "checkout_url": "https://forms.example.com/api/v1/billing/checkouts/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "provider": "manual",
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "completed_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Checkout"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getBillingCheckoutsId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The checkout. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "plan": "pro",
                     *       "interval": "month",
                     *       "status": "pending",
                     *       "checkout_url": "https://forms.example.com/api/v1/billing/checkouts/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "provider": "manual",
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "completed_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Checkout"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postExports: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "questionnaire_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *       "format": "csv"
                 *     }
                 */
                "application/json": components["schemas"]["ExportRequest"];
            };
        };
        responses: {
            /** @description The export. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description The export's status resource. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "questionnaire_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "format": "csv",
                     *       "status": "ready",
                     *       "sessions": 1,
                     *       "as_of": "2026-11-20T08:15:30Z",
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "download_url": "/api/v1/exports/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c/download"
                     *     }
                     */
                    "application/json": components["schemas"]["Export"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getExportsId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "questionnaire_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "format": "csv",
                     *       "status": "ready",
                     *       "sessions": 1,
                     *       "as_of": "2026-11-20T08:15:30Z",
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "download_url": "/api/v1/exports/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c/download"
                     *     }
                     */
                    "application/json": components["schemas"]["Export"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getExportsIdDownload: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, in the export's format. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description attachment; filename="<slug>-<as_of date>.csv" (or .ndjson) */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example session_id,name,email,started_at,completed_at,How did you hear about us?
                     *     4503599627370497,Ana Lima,ana@example.com,2026-11-20T08:15:30Z,2026-11-20T08:16:02Z,Radio
                     */
                    "text/csv; charset=utf-8; header=present": string;
                    /** @example {"session_id":4503599627370497,"name":"Ana Lima","email":"ana@example.com","started_at":"2026-11-20T08:15:30Z","completed_at":"2026-11-20T08:16:02Z","answers":{"101":"Radio"}} */
                    "application/x-ndjson; charset=utf-8": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhooks: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description next_cursor of the previous page (opaque). */
                cursor?: string;
            };
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "url": "https://example.com/hooks/onda",
                     *           "events": [
                     *             "session.started"
                     *           ],
                     *           "status": "active",
                     *           "disabled_at": "2026-11-20T08:15:30Z",
                     *           "disabled_reason": "The receiver answered 410 Gone.",
                     *           "created_at": "2026-11-20T08:15:30Z"
                     *         }
                     *       ],
                     *       "next_cursor": "eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWebhooks: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/hooks/onda",
                 *       "events": [
                 *         "session.started"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WebhookRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "url": "https://example.com/hooks/onda",
                     *       "events": [
                     *         "session.started"
                     *       ],
                     *       "status": "active",
                     *       "disabled_at": "2026-11-20T08:15:30Z",
                     *       "disabled_reason": "The receiver answered 410 Gone.",
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "signing_secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3tw6R7yR0oA="
                     *     }
                     */
                    "application/json": components["schemas"]["NewWebhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhooksId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhooksIdDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description next_cursor of the previous page (opaque). */
                cursor?: string;
                status?: "pending" | "succeeded" | "failed";
            };
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "webhook_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "event_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "event_type": "session.started",
                     *           "status": "pending",
                     *           "attempts": 0,
                     *           "created_at": "2026-11-20T08:15:30Z",
                     *           "last_attempt_at": "2026-11-20T08:15:30Z",
                     *           "last_response_code": 200,
                     *           "last_error": "timeout after 10 s",
                     *           "next_attempt_at": "2026-11-20T08:15:30Z",
                     *           "attempt_log": [
                     *             {
                     *               "attempt": 1,
                     *               "started_at": "2026-11-20T08:15:30Z",
                     *               "duration_ms": 84,
                     *               "response_code": 200,
                     *               "error": "timeout after 10 s"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "next_cursor": "eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["DeliveryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWebhooksIdDeliveriesDeliveryIdRetry: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "webhook_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "event_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "event_type": "session.started",
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "last_attempt_at": "2026-11-20T08:15:30Z",
                     *       "last_response_code": 200,
                     *       "last_error": "timeout after 10 s",
                     *       "next_attempt_at": "2026-11-20T08:15:30Z",
                     *       "attempt_log": [
                     *         {
                     *           "attempt": 1,
                     *           "started_at": "2026-11-20T08:15:30Z",
                     *           "duration_ms": 84,
                     *           "response_code": 200,
                     *           "error": "timeout after 10 s"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWebhooksIdTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "webhook_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "event_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "event_type": "session.started",
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "last_attempt_at": "2026-11-20T08:15:30Z",
                     *       "last_response_code": 200,
                     *       "last_error": "timeout after 10 s",
                     *       "next_attempt_at": "2026-11-20T08:15:30Z",
                     *       "attempt_log": [
                     *         {
                     *           "attempt": 1,
                     *           "started_at": "2026-11-20T08:15:30Z",
                     *           "duration_ms": 84,
                     *           "response_code": 200,
                     *           "error": "timeout after 10 s"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWorkspaceSigningSecretRotate: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Rotated. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "signing_secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3tw6R7yR0oA=",
                     *       "previous_secret_expires_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["SigningSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWhoamiDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "account": {
                     *           "id": "acme-media",
                     *           "name": "Acme Media"
                     *         },
                     *         "key": {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "prefix": "onda_ads_Q3vx",
                     *           "label": "reporting script",
                     *           "created_at": "2026-11-20T08:15:30Z"
                     *         },
                     *         "permissions": [
                     *           "ads:read"
                     *         ],
                     *         "scope": {
                     *           "stations": [
                     *             {
                     *               "id": "radio-nord",
                     *               "name": "Radio Nord"
                     *             }
                     *           ],
                     *           "brands": [
                     *             {
                     *               "id": "brand-7",
                     *               "name": "Fresh Cola"
                     *             }
                     *           ],
                     *           "period": {
                     *             "since": "2026-11-13T00:00:00Z",
                     *             "until": "2026-11-20T00:00:00Z"
                     *           }
                     *         },
                     *         "limits": {
                     *           "requests_per_minute": 60,
                     *           "default_period_days": 7,
                     *           "max_period_days": 31,
                     *           "limit": {
                     *             "min": 1,
                     *             "max": 100,
                     *             "default": 50
                     *           },
                     *           "offset": {
                     *             "min": 0,
                     *             "max": 100000,
                     *             "default": 0
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Whoami"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAdsDeprecated: {
        parameters: {
            query?: {
                /** @description Start of the period (inclusive); default until minus 7 days. */
                since?: string;
                /** @description End of the period (exclusive); default now. At most 31 days. */
                until?: string;
                /** @description Only this station; it must be in the account's scope (else 404). */
                station_id?: string;
                /** @description Only this brand; it must be in the account's scope (else 404). */
                brand_id?: string;
                /** @description Page size. */
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "station_id": "radio-nord",
                     *           "station_name": "Radio Nord",
                     *           "ad_started_at": "2026-11-20T08:15:30Z",
                     *           "ad_ended_at": "2026-11-20T08:15:30Z",
                     *           "duration_seconds": 30,
                     *           "duration_precision": "estimated",
                     *           "review_state": "confirmed",
                     *           "brands": [
                     *             {
                     *               "id": "brand-7",
                     *               "name": "Fresh Cola"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "meta": {
                     *         "limit": 50,
                     *         "offset": 0,
                     *         "total": 1,
                     *         "has_more": true,
                     *         "period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "requested_period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "snapshot_exported_at": "2026-11-20T08:15:30Z",
                     *         "notice": "An empty or short result does not prove that no advertisement aired: only confirmed occurrences of approved snapshots within this account's scope are listed. Check the period, the coverage (/api/v1/coverage), the freshness of the source (snapshot_exported_at) and the data limits."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["OccurrencePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getReportsSummaryDeprecated: {
        parameters: {
            query?: {
                /** @description Start of the period (inclusive); default until minus 7 days. */
                since?: string;
                /** @description End of the period (exclusive); default now. At most 31 days. */
                until?: string;
                /** @description Only this station; it must be in the account's scope (else 404). */
                station_id?: string;
                /** @description Only this brand; it must be in the account's scope (else 404). */
                brand_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The summary. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "totals": {
                     *           "occurrences": 42,
                     *           "duration_seconds": 1260,
                     *           "human_confirmed_duration_seconds": 600
                     *         },
                     *         "by_station": [
                     *           {
                     *             "station_id": "radio-nord",
                     *             "station_name": "Radio Nord",
                     *             "occurrences": 42,
                     *             "duration_seconds": 1260,
                     *             "human_confirmed_duration_seconds": 600
                     *           }
                     *         ],
                     *         "by_brand": [
                     *           {
                     *             "brand_id": "brand-7",
                     *             "brand_name": "Fresh Cola",
                     *             "occurrences": 42,
                     *             "duration_seconds": 1260,
                     *             "human_confirmed_duration_seconds": 600
                     *           }
                     *         ],
                     *         "by_day": [
                     *           {
                     *             "date": "2026-11-20",
                     *             "occurrences": 42,
                     *             "duration_seconds": 1260
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "requested_period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "snapshot_exported_at": "2026-11-20T08:15:30Z",
                     *         "notice": "An empty or short result does not prove that no advertisement aired: only confirmed occurrences of approved snapshots within this account's scope are listed. Check the period, the coverage (/api/v1/coverage), the freshness of the source (snapshot_exported_at) and the data limits."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Summary"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCoverageDeprecated: {
        parameters: {
            query?: {
                /** @description Start of the period (inclusive); default until minus 7 days. */
                since?: string;
                /** @description End of the period (exclusive); default now. At most 31 days. */
                until?: string;
                /** @description Only this station; it must be in the account's scope (else 404). */
                station_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Coverage per station. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "station_id": "radio-nord",
                     *           "station_name": "Radio Nord",
                     *           "captures": 12,
                     *           "captured_seconds": 594000,
                     *           "period_seconds": 604800,
                     *           "coverage_ratio": 0.982143,
                     *           "first_capture_at": "2026-11-20T08:15:30Z",
                     *           "last_capture_at": "2026-11-20T08:15:30Z",
                     *           "gaps": [
                     *             {
                     *               "since": "2026-11-20T08:15:30Z",
                     *               "until": "2026-11-20T08:15:30Z",
                     *               "seconds": 900
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "meta": {
                     *         "period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "requested_period": {
                     *           "since": "2026-11-13T00:00:00Z",
                     *           "until": "2026-11-20T00:00:00Z"
                     *         },
                     *         "snapshot_exported_at": "2026-11-20T08:15:30Z",
                     *         "notice": "Coverage counts only captures linked to the data granted to this account (its stations, within its period); it does not measure continuous operation of a station. An absence of captures or occurrences does not prove that no advertisement aired.",
                     *         "limits": {
                     *           "gap_threshold_seconds": 300,
                     *           "default_period_days": 7,
                     *           "max_period_days": 31
                     *         },
                     *         "provenance": [
                     *           {
                     *             "snapshot_id": "2026-11-19",
                     *             "exported_at": "2026-11-20T08:15:30Z"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Coverage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthRegisterDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ana@example.com",
                 *       "password": "correct horse battery staple",
                 *       "name": "Ana Lima"
                 *     }
                 */
                "application/json": components["schemas"]["Registration"];
            };
        };
        responses: {
            /** @description Registered. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    /** @description service_token (HttpOnly; SameSite=Lax; Path=/; Secure behind https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user": {
                     *         "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *         "email": "ana@example.com",
                     *         "name": "Ana Lima"
                     *       },
                     *       "workspaces": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "name": "Ana Lima's workspace",
                     *           "role": "viewer",
                     *           "plan": "free"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            400: components["responses"]["BadRequest"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthLoginDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ana@example.com",
                 *       "password": "correct horse battery staple"
                 *     }
                 */
                "application/json": components["schemas"]["Credentials"];
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    /** @description service_token (HttpOnly; SameSite=Lax; Path=/; Secure behind https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user": {
                     *         "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *         "email": "ana@example.com",
                     *         "name": "Ana Lima"
                     *       },
                     *       "workspaces": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "name": "Ana Lima's workspace",
                     *           "role": "viewer",
                     *           "plan": "free"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthLogoutDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    /** @description service_token (HttpOnly; SameSite=Lax; Path=/; Secure behind https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAuthTokensDeprecated: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description next_cursor of the previous page (opaque). */
                cursor?: string;
            };
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "name": "nightly export",
                     *           "created_at": "2026-11-20T08:15:30Z"
                     *         }
                     *       ],
                     *       "next_cursor": "eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["TokenPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthTokensDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "nightly export"
                 *     }
                 */
                "application/json": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "name": "nightly export",
                     *       "token": "onda_pat_3q2v9Yk0bW7cQmR1sT5uXzA8dE4fG6hJ2kL0nP9rS1t",
                     *       "created_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["NewToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteAuthTokensIdDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWorkspaceDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "name": "Ana Lima's workspace",
                     *       "role": "viewer",
                     *       "allowed_origins": [
                     *         "https://www.example.com"
                     *       ],
                     *       "plan": "free",
                     *       "usage": {
                     *         "month": "2026-11-20",
                     *         "answers": 120,
                     *         "answers_limit": 1000
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchWorkspaceDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Customer research",
                 *       "allowed_origins": [
                 *         "https://www.example.com"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WorkspaceChange"];
            };
        };
        responses: {
            /** @description The workspace. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "name": "Ana Lima's workspace",
                     *       "role": "viewer",
                     *       "allowed_origins": [
                     *         "https://www.example.com"
                     *       ],
                     *       "plan": "free",
                     *       "usage": {
                     *         "month": "2026-11-20",
                     *         "answers": 120,
                     *         "answers_limit": 1000
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWorkspaceMembersDeprecated: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description next_cursor of the previous page (opaque). */
                cursor?: string;
            };
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "user_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "email": "ana@example.com",
                     *           "name": "Ana Lima",
                     *           "role": "viewer",
                     *           "created_at": "2026-11-20T08:15:30Z"
                     *         }
                     *       ],
                     *       "next_cursor": "eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["MemberPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWorkspaceMembersDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ana@example.com",
                 *       "role": "viewer"
                 *     }
                 */
                "application/json": components["schemas"]["NewMember"];
            };
        };
        responses: {
            /** @description Added. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "email": "ana@example.com",
                     *       "name": "Ana Lima",
                     *       "role": "viewer",
                     *       "created_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWorkspaceMembersUserIdDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchWorkspaceMembersUserIdDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "role": "viewer"
                 *     }
                 */
                "application/json": components["schemas"]["RoleChange"];
            };
        };
        responses: {
            /** @description Changed. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "email": "ana@example.com",
                     *       "name": "Ana Lima",
                     *       "role": "viewer",
                     *       "created_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getQuestionnairesDeprecated: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description next_cursor of the previous page (opaque). */
                cursor?: string;
                state?: "draft" | "published" | "closed";
            };
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "title": "Customer feedback",
                     *           "slug": "customer-feedback",
                     *           "state": "draft",
                     *           "question_count": 2,
                     *           "created_at": "2026-11-20T08:15:30Z",
                     *           "updated_at": "2026-11-20T08:15:30Z",
                     *           "published_at": "2026-11-20T08:15:30Z",
                     *           "closed_at": "2026-11-20T08:15:30Z"
                     *         }
                     *       ],
                     *       "next_cursor": "eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["QuestionnaireSummaryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postQuestionnairesDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Customer feedback",
                 *       "slug": "customer-feedback",
                 *       "questions": [
                 *         {
                 *           "title": "How did you hear about us?",
                 *           "type": "choice",
                 *           "required": true,
                 *           "options": [
                 *             "Radio",
                 *             "A friend"
                 *           ]
                 *         },
                 *         {
                 *           "title": "How likely are you to recommend us?",
                 *           "type": "rating",
                 *           "required": false
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["NewQuestionnaire"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "state": "draft",
                     *       "question_count": 2,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "updated_at": "2026-11-20T08:15:30Z",
                     *       "published_at": "2026-11-20T08:15:30Z",
                     *       "closed_at": "2026-11-20T08:15:30Z",
                     *       "questions": [
                     *         {
                     *           "id": 101,
                     *           "title": "How did you hear about us?",
                     *           "type": "text",
                     *           "required": true,
                     *           "options": [
                     *             "Radio"
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Questionnaire"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getQuestionnairesIdDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The questionnaire. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "state": "draft",
                     *       "question_count": 2,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "updated_at": "2026-11-20T08:15:30Z",
                     *       "published_at": "2026-11-20T08:15:30Z",
                     *       "closed_at": "2026-11-20T08:15:30Z",
                     *       "questions": [
                     *         {
                     *           "id": 101,
                     *           "title": "How did you hear about us?",
                     *           "type": "text",
                     *           "required": true,
                     *           "options": [
                     *             "Radio"
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Questionnaire"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteQuestionnairesIdDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchQuestionnairesIdDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Customer feedback 2026",
                 *       "questions": [
                 *         {
                 *           "title": "How did you hear about us?",
                 *           "type": "choice",
                 *           "required": true,
                 *           "options": [
                 *             "Radio",
                 *             "A friend"
                 *           ]
                 *         },
                 *         {
                 *           "title": "How likely are you to recommend us?",
                 *           "type": "rating",
                 *           "required": false
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["QuestionnaireChange"];
            };
        };
        responses: {
            /** @description The questionnaire. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "state": "draft",
                     *       "question_count": 2,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "updated_at": "2026-11-20T08:15:30Z",
                     *       "published_at": "2026-11-20T08:15:30Z",
                     *       "closed_at": "2026-11-20T08:15:30Z",
                     *       "questions": [
                     *         {
                     *           "id": 101,
                     *           "title": "How did you hear about us?",
                     *           "type": "text",
                     *           "required": true,
                     *           "options": [
                     *             "Radio"
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Questionnaire"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postQuestionnairesIdPublishDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Published. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "state": "draft",
                     *       "question_count": 2,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "updated_at": "2026-11-20T08:15:30Z",
                     *       "published_at": "2026-11-20T08:15:30Z",
                     *       "closed_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["QuestionnaireSummary"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postQuestionnairesIdCloseDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Closed. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "state": "draft",
                     *       "question_count": 2,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "updated_at": "2026-11-20T08:15:30Z",
                     *       "published_at": "2026-11-20T08:15:30Z",
                     *       "closed_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["QuestionnaireSummary"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPublicQSlugDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The questionnaire. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Customer feedback",
                     *       "slug": "customer-feedback",
                     *       "questions": [
                     *         {
                     *           "id": 101,
                     *           "title": "How did you hear about us?",
                     *           "type": "text",
                     *           "required": true,
                     *           "options": [
                     *             "Radio"
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PublicQuestionnaire"];
                };
            };
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postPublicQSlugSessionsDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ana Lima",
                 *       "email": "ana@example.com",
                 *       "loaded_at": 1795162500000
                 *     }
                 */
                "application/json": components["schemas"]["SessionStart"];
            };
        };
        responses: {
            /** @description Started. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "sessionId": 4503599627370497
                     *     }
                     */
                    "application/json": components["schemas"]["StartedSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postPublicQSlugSessionsSessionIdAnswersDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                slug: string;
                sessionId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "questionId": 101,
                 *       "answerText": "Radio"
                 *     }
                 */
                "application/json": components["schemas"]["AnswerSubmission"];
            };
        };
        responses: {
            /** @description Stored. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "isComplete": false,
                     *       "progress": {
                     *         "answered": 1,
                     *         "total": 2
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postBillingCheckoutDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "plan": "pro",
                 *       "interval": "month"
                 *     }
                 */
                "application/json": components["schemas"]["CheckoutRequest"];
            };
        };
        responses: {
            /** @description Pending checkout. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    /** @description The checkout's status resource. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "plan": "pro",
                     *       "interval": "month",
                     *       "status": "pending",
                     *       "checkout_url": "https://forms.example.com/api/v1/billing/checkouts/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "provider": "manual",
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "completed_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Checkout"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getBillingCheckoutsIdDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The checkout. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "plan": "pro",
                     *       "interval": "month",
                     *       "status": "pending",
                     *       "checkout_url": "https://forms.example.com/api/v1/billing/checkouts/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "provider": "manual",
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "completed_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Checkout"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postExportsDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "questionnaire_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *       "format": "csv"
                 *     }
                 */
                "application/json": components["schemas"]["ExportRequest"];
            };
        };
        responses: {
            /** @description The export. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    /** @description The export's status resource. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "questionnaire_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "format": "csv",
                     *       "status": "ready",
                     *       "sessions": 1,
                     *       "as_of": "2026-11-20T08:15:30Z",
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "download_url": "/api/v1/exports/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c/download"
                     *     }
                     */
                    "application/json": components["schemas"]["Export"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getExportsIdDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "questionnaire_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "format": "csv",
                     *       "status": "ready",
                     *       "sessions": 1,
                     *       "as_of": "2026-11-20T08:15:30Z",
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "download_url": "/api/v1/exports/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c/download"
                     *     }
                     */
                    "application/json": components["schemas"]["Export"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getExportsIdDownloadDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, in the export's format. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    /** @description attachment; filename="<slug>-<as_of date>.csv" (or .ndjson) */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example session_id,name,email,started_at,completed_at,How did you hear about us?
                     *     4503599627370497,Ana Lima,ana@example.com,2026-11-20T08:15:30Z,2026-11-20T08:16:02Z,Radio
                     */
                    "text/csv; charset=utf-8; header=present": string;
                    /** @example {"session_id":4503599627370497,"name":"Ana Lima","email":"ana@example.com","started_at":"2026-11-20T08:15:30Z","completed_at":"2026-11-20T08:16:02Z","answers":{"101":"Radio"}} */
                    "application/x-ndjson; charset=utf-8": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhooksDeprecated: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description next_cursor of the previous page (opaque). */
                cursor?: string;
            };
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "url": "https://example.com/hooks/onda",
                     *           "events": [
                     *             "session.started"
                     *           ],
                     *           "status": "active",
                     *           "disabled_at": "2026-11-20T08:15:30Z",
                     *           "disabled_reason": "The receiver answered 410 Gone.",
                     *           "created_at": "2026-11-20T08:15:30Z"
                     *         }
                     *       ],
                     *       "next_cursor": "eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWebhooksDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/hooks/onda",
                 *       "events": [
                 *         "session.started"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WebhookRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "url": "https://example.com/hooks/onda",
                     *       "events": [
                     *         "session.started"
                     *       ],
                     *       "status": "active",
                     *       "disabled_at": "2026-11-20T08:15:30Z",
                     *       "disabled_reason": "The receiver answered 410 Gone.",
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "signing_secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3tw6R7yR0oA="
                     *     }
                     */
                    "application/json": components["schemas"]["NewWebhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhooksIdDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhooksIdDeliveriesDeprecated: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description next_cursor of the previous page (opaque). */
                cursor?: string;
                status?: "pending" | "succeeded" | "failed";
            };
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "webhook_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "event_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *           "event_type": "session.started",
                     *           "status": "pending",
                     *           "attempts": 0,
                     *           "created_at": "2026-11-20T08:15:30Z",
                     *           "last_attempt_at": "2026-11-20T08:15:30Z",
                     *           "last_response_code": 200,
                     *           "last_error": "timeout after 10 s",
                     *           "next_attempt_at": "2026-11-20T08:15:30Z",
                     *           "attempt_log": [
                     *             {
                     *               "attempt": 1,
                     *               "started_at": "2026-11-20T08:15:30Z",
                     *               "duration_ms": 84,
                     *               "response_code": 200,
                     *               "error": "timeout after 10 s"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "next_cursor": "eyJrIjpbIjIwMjYtMTEtMjBUMDg6MTU6MzAuMDAwWiJdfQ.c2lnbmF0dXJl",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["DeliveryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWebhooksIdDeliveriesDeliveryIdRetryDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
            };
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "webhook_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "event_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "event_type": "session.started",
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "last_attempt_at": "2026-11-20T08:15:30Z",
                     *       "last_response_code": 200,
                     *       "last_error": "timeout after 10 s",
                     *       "next_attempt_at": "2026-11-20T08:15:30Z",
                     *       "attempt_log": [
                     *         {
                     *           "attempt": 1,
                     *           "started_at": "2026-11-20T08:15:30Z",
                     *           "duration_ms": 84,
                     *           "response_code": 200,
                     *           "error": "timeout after 10 s"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWebhooksIdTestDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "webhook_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "event_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                     *       "event_type": "session.started",
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "created_at": "2026-11-20T08:15:30Z",
                     *       "last_attempt_at": "2026-11-20T08:15:30Z",
                     *       "last_response_code": 200,
                     *       "last_error": "timeout after 10 s",
                     *       "next_attempt_at": "2026-11-20T08:15:30Z",
                     *       "attempt_log": [
                     *         {
                     *           "attempt": 1,
                     *           "started_at": "2026-11-20T08:15:30Z",
                     *           "duration_ms": 84,
                     *           "response_code": 200,
                     *           "error": "timeout after 10 s"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWorkspaceSigningSecretRotateDeprecated: {
        parameters: {
            query?: never;
            header?: {
                /** @description The workspace of the request (its id); default: the user's first workspace. One the user is not a member of: 404 (field X-Workspace-Id). */
                "X-Workspace-Id"?: components["parameters"]["X-Workspace-Id"];
                /** @description UUID v4 unique per logical operation; a repeat within 24 h from the same caller replays the first answer (Idempotent-Replayed: true) without a second side effect; with another body: 422; while the first still runs: 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Rotated. */
            200: {
                headers: {
                    "X-Trace-Id": components["headers"]["X-Trace-Id"];
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "signing_secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3tw6R7yR0oA=",
                     *       "previous_secret_expires_at": "2026-11-20T08:15:30Z"
                     *     }
                     */
                    "application/json": components["schemas"]["SigningSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhookSessionStarted: {
        parameters: {
            query?: never;
            header: {
                /** @description Hex HMAC-SHA256 of the raw body, keyed with the signing secret string exactly as the API shows it (whsec_...). For 24 h after a rotation: two comma-separated digests, the new secret's first; accept the delivery when any matches. */
                "x-service-signature": components["parameters"]["x-service-signature"];
                /** @description The event type. */
                "x-service-event": components["parameters"]["x-service-event"];
                /** @description The delivery id (one per webhook and event). */
                "x-service-delivery": components["parameters"]["x-service-delivery"];
                /** @description Epoch seconds of this attempt. */
                "x-service-timestamp": components["parameters"]["x-service-timestamp"];
                /** @description Standard Webhooks: the event id, the same on every retry. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Standard Webhooks: epoch seconds of this attempt; reject old ones to stop replays. */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description Standard Webhooks: "v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body}>", keyed with the base64-decoded part of the secret after whsec_ (what the standardwebhooks libraries do with the same secret string). After a rotation: two space-separated entries, the new secret's first. */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *       "type": "session.started",
                 *       "created_at": "2026-11-20T08:15:30Z",
                 *       "workspace_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *       "data": {
                 *         "questionnaire_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *         "questionnaire_slug": "customer-feedback",
                 *         "session_id": 4503599627370497,
                 *         "sequence": 1,
                 *         "progress": {
                 *           "answered": 1,
                 *           "total": 2
                 *         },
                 *         "respondent": {
                 *           "name": "Ana Lima",
                 *           "email": "ana@example.com"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["SessionStartedEvent"];
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the webhook is disabled. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: the delivery succeeded. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status, a redirect, a refused target or no answer within 10 s fails the attempt; it is retried per WEBHOOK_RETRY_DELAYS (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each ±10 %), or after a later Retry-After on 429/503. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookAnswerSubmitted: {
        parameters: {
            query?: never;
            header: {
                /** @description Hex HMAC-SHA256 of the raw body, keyed with the signing secret string exactly as the API shows it (whsec_...). For 24 h after a rotation: two comma-separated digests, the new secret's first; accept the delivery when any matches. */
                "x-service-signature": components["parameters"]["x-service-signature"];
                /** @description The event type. */
                "x-service-event": components["parameters"]["x-service-event"];
                /** @description The delivery id (one per webhook and event). */
                "x-service-delivery": components["parameters"]["x-service-delivery"];
                /** @description Epoch seconds of this attempt. */
                "x-service-timestamp": components["parameters"]["x-service-timestamp"];
                /** @description Standard Webhooks: the event id, the same on every retry. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Standard Webhooks: epoch seconds of this attempt; reject old ones to stop replays. */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description Standard Webhooks: "v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body}>", keyed with the base64-decoded part of the secret after whsec_ (what the standardwebhooks libraries do with the same secret string). After a rotation: two space-separated entries, the new secret's first. */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *       "type": "answer.submitted",
                 *       "created_at": "2026-11-20T08:15:30Z",
                 *       "workspace_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *       "data": {
                 *         "questionnaire_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *         "questionnaire_slug": "customer-feedback",
                 *         "session_id": 4503599627370497,
                 *         "sequence": 1,
                 *         "progress": {
                 *           "answered": 1,
                 *           "total": 2
                 *         },
                 *         "question_id": 1,
                 *         "answer": "text"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["AnswerSubmittedEvent"];
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the webhook is disabled. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: the delivery succeeded. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status, a redirect, a refused target or no answer within 10 s fails the attempt; it is retried per WEBHOOK_RETRY_DELAYS (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each ±10 %), or after a later Retry-After on 429/503. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookSessionCompleted: {
        parameters: {
            query?: never;
            header: {
                /** @description Hex HMAC-SHA256 of the raw body, keyed with the signing secret string exactly as the API shows it (whsec_...). For 24 h after a rotation: two comma-separated digests, the new secret's first; accept the delivery when any matches. */
                "x-service-signature": components["parameters"]["x-service-signature"];
                /** @description The event type. */
                "x-service-event": components["parameters"]["x-service-event"];
                /** @description The delivery id (one per webhook and event). */
                "x-service-delivery": components["parameters"]["x-service-delivery"];
                /** @description Epoch seconds of this attempt. */
                "x-service-timestamp": components["parameters"]["x-service-timestamp"];
                /** @description Standard Webhooks: the event id, the same on every retry. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Standard Webhooks: epoch seconds of this attempt; reject old ones to stop replays. */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description Standard Webhooks: "v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body}>", keyed with the base64-decoded part of the secret after whsec_ (what the standardwebhooks libraries do with the same secret string). After a rotation: two space-separated entries, the new secret's first. */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *       "type": "session.completed",
                 *       "created_at": "2026-11-20T08:15:30Z",
                 *       "workspace_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *       "data": {
                 *         "questionnaire_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *         "questionnaire_slug": "customer-feedback",
                 *         "session_id": 4503599627370497,
                 *         "sequence": 1,
                 *         "progress": {
                 *           "answered": 1,
                 *           "total": 2
                 *         },
                 *         "respondent": {
                 *           "name": "Ana Lima",
                 *           "email": "ana@example.com"
                 *         },
                 *         "answers": [
                 *           {
                 *             "question_id": 1,
                 *             "answer": "text"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["SessionCompletedEvent"];
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the webhook is disabled. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: the delivery succeeded. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status, a redirect, a refused target or no answer within 10 s fails the attempt; it is retried per WEBHOOK_RETRY_DELAYS (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each ±10 %), or after a later Retry-After on 429/503. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookPing: {
        parameters: {
            query?: never;
            header: {
                /** @description Hex HMAC-SHA256 of the raw body, keyed with the signing secret string exactly as the API shows it (whsec_...). For 24 h after a rotation: two comma-separated digests, the new secret's first; accept the delivery when any matches. */
                "x-service-signature": components["parameters"]["x-service-signature"];
                /** @description The event type. */
                "x-service-event": components["parameters"]["x-service-event"];
                /** @description The delivery id (one per webhook and event). */
                "x-service-delivery": components["parameters"]["x-service-delivery"];
                /** @description Epoch seconds of this attempt. */
                "x-service-timestamp": components["parameters"]["x-service-timestamp"];
                /** @description Standard Webhooks: the event id, the same on every retry. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Standard Webhooks: epoch seconds of this attempt; reject old ones to stop replays. */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description Standard Webhooks: "v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body}>", keyed with the base64-decoded part of the secret after whsec_ (what the standardwebhooks libraries do with the same secret string). After a rotation: two space-separated entries, the new secret's first. */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *       "type": "ping",
                 *       "created_at": "2026-11-20T08:15:30Z",
                 *       "workspace_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
                 *       "data": {
                 *         "webhook_id": "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PingEvent"];
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the webhook is disabled. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: the delivery succeeded. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status, a redirect, a refused target or no answer within 10 s fails the attempt; it is retried per WEBHOOK_RETRY_DELAYS (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each ±10 %), or after a later Retry-After on 429/503. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
