// What a webhook receives, as schemas: the body of each event (written by onda_start_session
// and onda_record_answer in sql/003_forms.sql, and by the test ping) and the headers of every
// delivery (lib/webhooks/signing.ts), for the OpenAPI document's webhooks section.

import type { WebhookDoc, WebhookDocs } from "../http/openapi/document.ts";
import { progressSchema as progress, respondentSchema as respondent } from "./schemas.ts";
import * as s from "../http/schema.ts";

const SESSION_ID = 4_503_599_627_370_497;
const sessionData = {
  questionnaire_id: s.uuid(),
  questionnaire_slug: s.string({ example: "customer-feedback" }),
  session_id: s.int({ min: 1, example: SESSION_ID }),
  sequence: s.int({
    min: 1,
    description: "Numbers the events of one session from 1; deliveries may arrive out of " +
      "order, so order by it.",
  }),
  progress,
};
const sessionExample = {
  questionnaire_id: "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
  questionnaire_slug: "customer-feedback",
  session_id: SESSION_ID,
};
const ana = { name: "Ana Lima", email: "ana@example.com" };
const eventId = "The event id (also webhook-id): the same on every retry; deduplicate by it.";
/** What an erasure (routes/forms/sessions.ts, routes/forms/erasures.ts) means for a receiver. */
const erasure = " After the workspace erases the session (DELETE of the session, or POST " +
  "/api/v1/workspace/erasures for its respondent), its events are no longer sent, retried or " +
  "served by GET /api/v1/events; what was received before is the receiver's copy, and erasing " +
  "it is the integrator's duty.";

/** An event's documentation; its payload is the envelope of every delivered body around `data`. */
function event(type: string, summary: string, description: string, payload: {
  name: string;
  description: string;
  data: s.Schema<unknown>;
  example: Record<string, unknown>;
}): WebhookDoc {
  const envelope = {
    id: s.uuid(),
    type: s.enumOf([type]),
    created_at: s.dateTime(),
    workspace_id: s.uuid(),
  };
  const example = {
    id: "0b6d2f7e-5a41-4c3b-9e8d-7f1a2b3c4d5e",
    type,
    created_at: "2026-11-20T08:15:30.123Z",
    workspace_id: "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    data: payload.example,
  };
  return {
    event: type,
    summary,
    description,
    payload: s.named(
      payload.name,
      s.object({ ...envelope, data: payload.data }, { description: payload.description, example }),
    ),
  };
}

const epochSeconds = s.string({ pattern: /^\d+$/, example: "1795162530" });

function header(name: string, description: string, schema: s.Schema<unknown>) {
  return { name, description, schema, required: true };
}

const sessionStarted = event(
  "session.started",
  "A session started",
  "Sent when a visitor starts a session on a published questionnaire." + erasure,
  {
    name: "SessionStartedEvent",
    description: `A visitor started a session. id: ${eventId}`,
    data: s.object({ ...sessionData, respondent }),
    example: {
      ...sessionExample,
      sequence: 1,
      progress: { answered: 0, total: 2 },
      respondent: ana,
    },
  },
);

const answerSubmitted = event(
  "answer.submitted",
  "An answer was submitted",
  "Sent for every stored answer." + erasure,
  {
    name: "AnswerSubmittedEvent",
    description: `A question of a session was answered. id: ${eventId}`,
    data: s.object({
      ...sessionData,
      question_id: s.int({ min: 1 }),
      answer: s.string({
        description: "The answer as stored (empty for a skipped optional one).",
      }),
    }),
    example: {
      ...sessionExample,
      sequence: 3,
      progress: { answered: 2, total: 2 },
      question_id: 102,
      answer: "5",
    },
  },
);

const sessionCompleted = event(
  "session.completed",
  "A session completed",
  "Sent once, when the last open question of a session is answered; it follows that " +
    "answer's answer.submitted (sequence one higher)." + erasure,
  {
    name: "SessionCompletedEvent",
    description: `Every question of a session is answered; sent once per session. id: ${eventId}`,
    data: s.object({
      ...sessionData,
      respondent,
      answers: s.array(s.object({ question_id: s.int({ min: 1 }), answer: s.string() })),
    }),
    example: {
      ...sessionExample,
      sequence: 4,
      progress: { answered: 2, total: 2 },
      respondent: ana,
      answers: [{ question_id: 101, answer: "Radio" }, { question_id: 102, answer: "5" }],
    },
  },
);

const ping = event(
  "ping",
  "Test ping",
  "Sent by POST /api/v1/webhooks/{id}/test, signed like every event.",
  {
    name: "PingEvent",
    description: "The test ping of POST /api/v1/webhooks/{id}/test; sent to that webhook only.",
    data: s.object({ webhook_id: s.uuid() }),
    example: { webhook_id: "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a" },
  },
);

/**
 * An item of GET /api/v1/events: the body of the webhook delivery of one event, its data typed
 * by its type (the same components as the webhooks section). The ping is sent to one webhook
 * only and is not an event of the workspace.
 */
export const eventSchema = s.named(
  "Event",
  s.discriminated("type", {
    "session.started": sessionStarted.payload,
    "answer.submitted": answerSubmitted.payload,
    "session.completed": sessionCompleted.payload,
  }, {
    description: "Exactly the body of the webhook delivery of this event, byte for byte: same " +
      "id, type, created_at, workspace_id and data; data is typed by type.",
  }),
);

export const webhookDocs: WebhookDocs = {
  headers: [
    header(
      "x-service-signature",
      "Hex HMAC-SHA256 of the raw body, keyed with the signing secret string exactly as the " +
        "API shows it (whsec_...). For 24 h after a rotation: two comma-separated digests, the " +
        "new secret's first; accept the delivery when any matches.",
      s.string({ pattern: /^[0-9a-f]{64}(,[0-9a-f]{64})?$/, example: "a".repeat(64) }),
    ),
    header("x-service-event", "The event type.", s.string({ example: "session.started" })),
    header("x-service-delivery", "The delivery id (one per webhook and event).", s.uuid()),
    header("x-service-timestamp", "Epoch seconds of this attempt.", epochSeconds),
    header("webhook-id", "Standard Webhooks: the event id, the same on every retry.", s.uuid()),
    header(
      "webhook-timestamp",
      "Standard Webhooks: epoch seconds of this attempt; reject old ones to stop replays.",
      epochSeconds,
    ),
    header(
      "webhook-signature",
      'Standard Webhooks: "v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body}>", ' +
        "keyed with the base64-decoded part of the secret after whsec_ (what the " +
        "standardwebhooks libraries do with the same secret string). After a rotation: two " +
        "space-separated entries, the new secret's first.",
      s.string({
        pattern: /^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)?$/,
        example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
      }),
    ),
  ],
  responses: {
    "2XX": "Received: the delivery succeeded.",
    "410": "Gone: the delivery fails and the webhook is disabled.",
    default: "Any other status, a redirect, a refused target or no answer within 10 s fails " +
      "the attempt; it is retried per WEBHOOK_RETRY_DELAYS (default 5 s, 5 min, 30 min, 2 h, " +
      "5 h, 10 h, 14 h, 20 h, 24 h, each ±10 %), or after a later Retry-After on 429/503.",
  },
  events: [sessionStarted, answerSubmitted, sessionCompleted, ping],
};
