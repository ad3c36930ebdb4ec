-- 011_invitation_secrets: an invitation is accepted with a secret, not by its address alone
-- (issue 30, item 5). Addresses are never verified, so whoever registered an invited address
-- first could see and accept its invitation, an owner's included. The inviter now gets a secret
-- once, in the answer that creates the invitation, and forwards it to the person; accepting,
-- declining or reading the invitation needs that secret and a signed-in user with the address.

-- Invitations made before this migration have no secret: nobody was ever given one, so none can
-- be accepted the new way, and one matched by its address alone is the hole this closes. They
-- are deleted, as an expired invitation is at the workspace's next invite: an admin who still
-- wants the person invites the address again, and the answer carries the secret to forward.
delete from invitations;

-- The SHA-256 digest of the secret, as every credential is kept (lib/http/credentials.ts): the
-- secret itself is never stored, and the invitation is found by this digest.
alter table invitations add column secret_digest bytea not null;
create unique index invitations_secret_idx on invitations (secret_digest);

-- The invitee's list by address is gone (a squatter read the workspace's name from it); nothing
-- else looks invitations up by address alone.
drop index invitations_email_idx;
