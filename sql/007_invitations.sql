-- Workspace invitations (issue 30, item 5): an admin invites an e-mail address with a role; the
-- user with that address accepts (the membership is made then, with the role) or declines. The
-- address need not be registered, so inviting tells nothing of who has an account.
create table invitations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  email text not null,
  role text not null check (role in ('viewer', 'editor', 'admin', 'owner')),
  invited_by uuid references users(id) on delete set null,
  created_at timestamptz not null,
  expires_at timestamptz not null
);
-- One invitation per address and workspace: inviting again renews it.
create unique index invitations_workspace_email_idx on invitations (workspace_id, lower(email));
-- The invitee's list, found by the address of the signed-in user.
create index invitations_email_idx on invitations (lower(email), created_at);
