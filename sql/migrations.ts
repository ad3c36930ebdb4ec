// The ordered list of migrations, imported as text so `deno compile` embeds them.
import m001 from "./001_core.sql" with { type: "text" };
import m002 from "./002_ads.sql" with { type: "text" };
import m003 from "./003_forms.sql" with { type: "text" };
import m004 from "./004_webhooks.sql" with { type: "text" };
import m005 from "./005_billing_exports.sql" with { type: "text" };
import m006 from "./006_account_occurrences.sql" with { type: "text" };
import m007 from "./007_capture_run_bounds.sql" with { type: "text" };
import m008 from "./008_summary_figures.sql" with { type: "text" };
import m009 from "./009_coverage_index.sql" with { type: "text" };
import m010 from "./010_packed_brand_figures.sql" with { type: "text" };
import m011 from "./011_drop_occurrence_time_index.sql" with { type: "text" };
import m012 from "./012_brand_days_version.sql" with { type: "text" };
import m013 from "./013_station_index_without_id.sql" with { type: "text" };
import m014 from "./014_shared_figures.sql" with { type: "text" };
import m015 from "./015_event_feed.sql" with { type: "text" };

export const migrations: { name: string; text: string }[] = [
  { name: "001_core.sql", text: m001 },
  { name: "002_ads.sql", text: m002 },
  { name: "003_forms.sql", text: m003 },
  { name: "004_webhooks.sql", text: m004 },
  { name: "005_billing_exports.sql", text: m005 },
  { name: "006_account_occurrences.sql", text: m006 },
  { name: "007_capture_run_bounds.sql", text: m007 },
  { name: "008_summary_figures.sql", text: m008 },
  { name: "009_coverage_index.sql", text: m009 },
  { name: "010_packed_brand_figures.sql", text: m010 },
  { name: "011_drop_occurrence_time_index.sql", text: m011 },
  { name: "012_brand_days_version.sql", text: m012 },
  { name: "013_station_index_without_id.sql", text: m013 },
  { name: "014_shared_figures.sql", text: m014 },
  { name: "015_event_feed.sql", text: m015 },
];
