// Erasure of one respondent's data in the workspace, on that person's request: every session
// they started, with what was written from it (lib/forms/erasure.ts).

import { user } from "../../lib/forms/auth.ts";
import { addressDigest, eraseSessions } from "../../lib/forms/erasure.ts";
import { frag } from "../../lib/db/db.ts";
import { answeredInTransaction } from "../../lib/http/idempotency.ts";
import { formsRoutes } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";

const responsesRoute = formsRoutes({ tag: "responses", cors: "credentialed" });

const erasureJson = s.named(
  "Erasure",
  s.object({
    id: s.uuid({ description: "The erasure's record." }),
    sessions: s.int({ min: 0, example: 3, description: "Sessions erased." }),
    created_at: s.dateTime(),
  }, {
    example: {
      id: "7e3c1b2a-9d8f-4e6a-b5c4-3d2e1f0a9b8c",
      sessions: 3,
      created_at: "2026-11-20T08:15:30.123Z",
    },
  }),
);

export const routes = [
  responsesRoute({
    method: "POST",
    path: "/api/v1/workspace/erasures",
    summary: "Erase a respondent's data",
    description: "Erases every session of the workspace whose respondent has this e-mail " +
      "address (compared case-insensitively), in every questionnaire, with its answers, in " +
      "one transaction: they are gone from every route, from exports downloaded afterwards " +
      "and from the events feed, and their events' deliveries (with their stored bodies) " +
      "leave the delivery log; an event not yet delivered is never sent. Deliveries already " +
      "made stay made (one in flight may still arrive). Copies are the integrator's to " +
      "erase: webhook deliveries already received, events already read and exports already " +
      "downloaded hold the same data. Answers 200 with how many sessions were erased (0 " +
      "when none had the address). The erasure is recorded with who asked and when, and " +
      "only a keyed digest of the address (HMAC under the service secret), never the " +
      "address; the stored Idempotency-Key record keeps a keyed digest of the request too. " +
      "Sessions started with the address afterwards are new data, not erased. What it " +
      "covers is the sessions whose respondent gave this address, with every answer in them " +
      "(an e-mail question's included): the free text of other respondents' sessions is not " +
      "searched, so an answer in which someone else wrote the address (or the person's name) " +
      "stays; erase such a session with DELETE " +
      "/api/v1/questionnaires/{id}/sessions/{sessionId} if it must go. Needs admin. " +
      "Accepts Idempotency-Key.",
    auth: user("admin"),
    idempotent: true,
    // No credential in the answer, but the request holds the address: its digest in the
    // Idempotency-Key record is keyed, as for the sealed routes.
    sealed: {},
    body: s.named(
      "ErasureRequest",
      s.object({ email: s.email() }, { example: { email: "ana@example.com" } }),
    ),
    responses: { 200: { description: "Erased.", schema: erasureJson } },
    handler: async ({ app, body, principal, req }) => {
      const digest = await addressDigest(app.secretKey, principal.workspaceId, body.email);
      return answeredInTransaction(app.db, req, 200, async (tx) => {
        const record = await eraseSessions(
          tx,
          principal,
          "respondent",
          frag`select id from sessions
            where workspace_id = ${principal.workspaceId} and lower(email) = lower(${body.email})`,
          digest,
          app.clock(),
        );
        return { id: record.id, sessions: record.sessions, created_at: record.created_at };
      });
    },
  }),
];
