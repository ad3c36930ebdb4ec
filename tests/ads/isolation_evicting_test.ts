// The randomised isolation check with a cache far smaller than one request reads: every request
// evicts, and reads again what it needs, and every answer must still be exact. At 0.002 MB hardly
// an array fits the arena; at 0.02 MB a few do, and each request evicts arrays it read itself.

import { isolationTests } from "./_isolation.ts";

await isolationTests(" with ADS_CACHE_MB=0.002", { ADS_CACHE_MB: "0.002" });
await isolationTests(" with ADS_CACHE_MB=0.02", { ADS_CACHE_MB: "0.02" }, "arrays kept");
