-- Forms tokens and login sessions keep their digest as ads API keys do: the SHA-256 of the
-- secret as bytea (lib/http/credentials.ts), one stored form for every credential. The hex text
-- they were stored as decodes to exactly those 32 bytes, so a token issued before still works.
alter table auth_tokens alter column digest type bytea using decode(digest, 'hex');
