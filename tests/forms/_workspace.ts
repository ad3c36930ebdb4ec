// Helpers for the billing, export, embed and demo tests, on top of tests/forms/_forms.ts: members
// with a role in another user's workspace, and a questionnaire with every question type.

import assert from "node:assert/strict";
import { type QuestionSpec, registerUser, type TestUser } from "./_forms.ts";
import type { TestService } from "../_server.ts";

/** A user with `role` in the owner's workspace (registered, invited by the owner, accepted). */
export async function addMember(
  service: TestService,
  owner: TestUser,
  role: "viewer" | "editor" | "admin" | "owner",
): Promise<TestUser> {
  const member = await registerUser(service, { name: role });
  await joinByInvitation(service, owner, member, role);
  const workspaceId = owner.workspaceId;
  return {
    ...member,
    workspaceId,
    headers: (extra = {}) => ({ ...member.headers(extra), "x-workspace-id": workspaceId }),
  };
}

/**
 * `admin` invites `member`'s address to its workspace with `role`; `member` accepts with the
 * secret the invitation's answer holds.
 */
export async function joinByInvitation(
  service: TestService,
  admin: TestUser,
  member: TestUser,
  role: string,
): Promise<void> {
  const invited = await service.fetch("/api/v1/workspace/members", {
    method: "POST",
    headers: admin.headers(),
    body: JSON.stringify({ email: member.email, role }),
  });
  assert.equal(invited.status, 202, `invite: ${await invited.clone().text()}`);
  const { secret } = await invited.json();
  const accepted = await service.fetch("/api/v1/invitations/accept", {
    method: "POST",
    headers: member.headers(),
    body: JSON.stringify({ secret }),
  });
  assert.equal(accepted.status, 200, `accept: ${await accepted.clone().text()}`);
  await accepted.body?.cancel();
}

export const EVERY_TYPE: QuestionSpec[] = [
  { title: "What should we improve, in your words?", type: "text" },
  { title: "Which e-mail should we answer to?", type: "email" },
  { title: "How many people are in your team?", type: "number", required: false },
  { title: "Which plan do you use?", type: "choice", options: ["Free", "Pro", "Business"] },
  { title: "How likely are you to recommend us?", type: "rating" },
];
