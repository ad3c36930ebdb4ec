// The randomised isolation check with a cache far smaller than one request reads: every request
// evicts, and reads again what it needs, and every answer must still be exact.

import { isolationTests } from "./_isolation.ts";

await isolationTests(" with ADS_CACHE_MB=0.002", { ADS_CACHE_MB: "0.002" });
