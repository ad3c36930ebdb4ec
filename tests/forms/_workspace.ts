// Helpers for the billing, export, embed and demo tests, on top of tests/forms/_forms.ts: members
// with a role in another user's workspace, and a questionnaire with every question type.

import assert from "node:assert/strict";
import { type QuestionSpec, registerUser, type TestUser } from "./_forms.ts";
import type { TestService } from "../_server.ts";

/** A user with `role` in the owner's workspace (registered, then added by the owner). */
export async function addMember(
  service: TestService,
  owner: TestUser,
  role: "viewer" | "editor" | "admin" | "owner",
): Promise<TestUser> {
  const member = await registerUser(service, { name: role });
  const res = await service.fetch("/api/v1/workspace/members", {
    method: "POST",
    headers: owner.headers(),
    body: JSON.stringify({ email: member.email, role }),
  });
  assert.ok(res.status === 201 || res.status === 200, `add member: ${res.status}`);
  await res.body?.cancel();
  const workspaceId = owner.workspaceId;
  return {
    ...member,
    workspaceId,
    headers: (extra = {}) => ({ ...member.headers(extra), "x-workspace-id": workspaceId }),
  };
}

export const EVERY_TYPE: QuestionSpec[] = [
  { title: "What should we improve, in your words?", type: "text" },
  { title: "Which e-mail should we answer to?", type: "email" },
  { title: "How many people are in your team?", type: "number", required: false },
  { title: "Which plan do you use?", type: "choice", options: ["Free", "Pro", "Business"] },
  { title: "How likely are you to recommend us?", type: "rating" },
];
