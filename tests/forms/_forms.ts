// Test helpers for the forms API: register users, create and publish questionnaires, start
// sessions and answer, all over real HTTP against a TestService.

import assert from "node:assert/strict";
import { body, type TestService } from "../_server.ts";

export interface TestUser {
  /** "service_token=..." for a Cookie header. */
  cookie: string;
  /** A bearer token, when registerUser was asked for one ({ bearer: true }). */
  token?: string;
  userId: string;
  workspaceId: string;
  email: string;
  password: string;
  name: string;
  /** Cookie + X-Workspace-Id (+ content-type), merged with `extra`. */
  headers(extra?: Record<string, string>): Record<string, string>;
}

export interface RegisterOptions {
  email?: string;
  password?: string;
  name?: string;
  /** Also create a bearer token (POST /api/v1/auth/tokens). */
  bearer?: boolean;
}

export interface QuestionSpec {
  title: string;
  type: "text" | "email" | "number" | "choice" | "rating";
  required?: boolean;
  options?: string[];
}

export interface TestQuestionnaire {
  id: string;
  slug: string;
  title: string;
  state: string;
  questions: {
    id: number;
    title: string;
    type: string;
    required: boolean;
    options: string[] | null;
  }[];
}

/** The value of service_token from a Set-Cookie header, as "service_token=...". */
export function cookieFrom(res: Response): string {
  const set = res.headers.get("set-cookie") ?? "";
  const match = /service_token=([^;]*)/.exec(set);
  assert.ok(match && match[1], `no service_token cookie in: ${set}`);
  return `service_token=${match[1]}`;
}

export async function registerUser(
  service: TestService,
  overrides: RegisterOptions = {},
): Promise<TestUser> {
  const email = overrides.email ?? `u${crypto.randomUUID().slice(0, 12)}@example.com`;
  const password = overrides.password ?? `pw-${crypto.randomUUID()}`;
  const name = overrides.name ?? "Test User";
  const res = await service.fetch("/api/v1/auth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, name }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const cookie = cookieFrom(res);
  const data = await body<{ user: { id: string }; workspaces: { id: string }[] }>(res);
  const userId = data.user.id;
  const workspaceId = data.workspaces[0].id;
  const headers = (extra: Record<string, string> = {}) => ({
    "content-type": "application/json",
    cookie,
    "x-workspace-id": workspaceId,
    ...extra,
  });
  let token: string | undefined;
  if (overrides.bearer) {
    const made = await service.fetch("/api/v1/auth/tokens", {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({ name: "test" }),
    });
    assert.equal(made.status, 201);
    token = (await body<{ token: string }>(made)).token;
  }
  return { cookie, token, userId, workspaceId, email, password, name, headers };
}

export const DEFAULT_QUESTIONS: QuestionSpec[] = [
  { title: "Your comment", type: "text" },
  { title: "How likely are you to recommend us?", type: "rating" },
  { title: "Which plan?", type: "choice", options: ["free", "pro", "business"] },
];

export async function createQuestionnaire(
  service: TestService,
  user: TestUser,
  questions: QuestionSpec[] = DEFAULT_QUESTIONS,
  extra: { title?: string; slug?: string; bot_protection?: boolean; min_fill_seconds?: number } =
    {},
): Promise<TestQuestionnaire> {
  const res = await service.fetch("/api/v1/questionnaires", {
    method: "POST",
    headers: user.headers(),
    body: JSON.stringify({ ...extra, title: extra.title ?? "Feedback", questions }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return await body<TestQuestionnaire>(res);
}

export async function publishQuestionnaire(
  service: TestService,
  user: TestUser,
  questionnaire: { id: string },
): Promise<void> {
  const res = await service.fetch(`/api/v1/questionnaires/${questionnaire.id}/publish`, {
    method: "POST",
    headers: user.headers(),
  });
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
}

/** Creates and publishes a questionnaire in one go. */
export async function publishedQuestionnaire(
  service: TestService,
  user: TestUser,
  questions: QuestionSpec[] = DEFAULT_QUESTIONS,
  extra: { bot_protection?: boolean; min_fill_seconds?: number } = {},
): Promise<TestQuestionnaire> {
  const q = await createQuestionnaire(service, user, questions, extra);
  await publishQuestionnaire(service, user, q);
  return q;
}

export function sessionBody(overrides: Record<string, unknown> = {}) {
  return { name: "Visitor", email: "visitor@example.com", loaded_at: Date.now(), ...overrides };
}

/** POST a session; returns the raw response (status not checked). */
export function postSession(
  service: TestService,
  slug: string,
  payload: Record<string, unknown> = sessionBody(),
  headers: Record<string, string> = {},
): Promise<Response> {
  return service.fetch(`/api/v1/public/q/${slug}/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(payload),
  });
}

/** Starts a session and answers its id (asserts 201). */
export async function startSession(
  service: TestService,
  slug: string,
  payload: Record<string, unknown> = sessionBody(),
): Promise<number> {
  const res = await postSession(service, slug, payload);
  assert.equal(res.status, 201, await res.clone().text());
  return (await body<{ sessionId: number }>(res)).sessionId;
}

/** POST an answer; returns the raw response (status not checked). */
export function answer(
  service: TestService,
  slug: string,
  sessionId: number,
  questionId: number,
  answerText: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return service.fetch(`/api/v1/public/q/${slug}/sessions/${sessionId}/answers`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ questionId, answerText }),
  });
}

/** A valid answer for each default question type. */
export function validAnswerFor(q: { type: string; options: string[] | null }): string {
  switch (q.type) {
    case "email":
      return "someone@example.com";
    case "number":
      return "42";
    case "choice":
      return q.options![0];
    case "rating":
      return "4";
    default:
      return "Fine.";
  }
}
