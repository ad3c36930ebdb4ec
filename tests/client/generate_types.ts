// Writes tests/client/api_types.ts, the TypeScript types of the served OpenAPI document as
// openapi-typescript makes them. `deno task openapi-types` runs it after a change to the routes;
// tests/client/typed_client_test.ts fails while the file differs from what the document makes.

import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import { startTestService } from "../_server.ts";

export const TYPES_FILE = new URL("./api_types.ts", import.meta.url);

const HEADER = "// Generated from GET /api/openapi by tests/client/generate_types.ts (deno task " +
  "openapi-types).\n// Do not edit: typed_client_test.ts checks it matches the served document.\n\n";

export async function generateTypes(doc: unknown): Promise<string> {
  // openapi-typescript's default options, as an integrator runs it (`npx openapi-typescript`).
  const ast = await openapiTS(doc as OpenAPI3);
  // Without the descriptions and examples, so that only a change of the types makes it stale.
  return HEADER + astToString(ast, { formatOptions: { removeComments: true } });
}

if (import.meta.main) {
  const service = await startTestService();
  try {
    const doc = await (await service.fetch("/api/openapi")).json();
    await Deno.writeTextFile(TYPES_FILE, await generateTypes(doc));
  } finally {
    await service.close();
  }
}
