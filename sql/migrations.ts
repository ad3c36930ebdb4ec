// The ordered list of migrations, imported as text so `deno compile` embeds them. 001-004 are
// the schema of 1.0; every later change is a new numbered file, never an edit of these.
import m001 from "./001_core.sql" with { type: "text" };
import m002 from "./002_ads.sql" with { type: "text" };
import m003 from "./003_forms.sql" with { type: "text" };
import m004 from "./004_webhooks.sql" with { type: "text" };
import m005 from "./005_rate_limit_lock.sql" with { type: "text" };
import m006 from "./006_ads_blocks.sql" with { type: "text" };
import m007 from "./007_invitations.sql" with { type: "text" };
import m008 from "./008_bot_protection.sql" with { type: "text" };
import m009 from "./009_responses.sql" with { type: "text" };
import m010 from "./010_period_tallies.sql" with { type: "text" };
import m011 from "./011_invitation_secrets.sql" with { type: "text" };
import m012 from "./012_credential_digests.sql" with { type: "text" };
import m013 from "./013_idempotency_lapse.sql" with { type: "text" };
import m014 from "./014_ads_approved_frozen.sql" with { type: "text" };
import m015 from "./015_id_order.sql" with { type: "text" };

export const migrations: { name: string; text: string }[] = [
  { name: "001_core.sql", text: m001 },
  { name: "002_ads.sql", text: m002 },
  { name: "003_forms.sql", text: m003 },
  { name: "004_webhooks.sql", text: m004 },
  { name: "005_rate_limit_lock.sql", text: m005 },
  { name: "006_ads_blocks.sql", text: m006 },
  { name: "007_invitations.sql", text: m007 },
  { name: "008_bot_protection.sql", text: m008 },
  { name: "009_responses.sql", text: m009 },
  { name: "010_period_tallies.sql", text: m010 },
  { name: "011_invitation_secrets.sql", text: m011 },
  { name: "012_credential_digests.sql", text: m012 },
  { name: "013_idempotency_lapse.sql", text: m013 },
  { name: "014_ads_approved_frozen.sql", text: m014 },
  { name: "015_id_order.sql", text: m015 },
];
