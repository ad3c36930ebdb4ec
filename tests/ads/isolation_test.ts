// Tenant isolation, randomised, with the default cache (the check itself: _isolation.ts).

import { isolationTests } from "./_isolation.ts";

await isolationTests("", {});
