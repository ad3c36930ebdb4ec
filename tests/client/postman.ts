// `deno task postman [URL]`: a Postman collection of the service's API, converted from its
// OpenAPI document by Postman's own converter (openapi-to-postmanv2), then given what the
// converter cannot say: one variable per credential, a fresh Idempotency-Key per request and
// the workspace as a variable. Writes the collection (JSON) to stdout.

import Converter from "openapi-to-postmanv2";

// deno-lint-ignore no-explicit-any
type Json = any;

/**
 * The collection variable each security scheme's credential goes in. The converter names every
 * bearer credential {{bearerToken}}, so an ads key and a forms token would overwrite each other.
 */
export const CREDENTIAL_VARIABLES: Record<string, string> = {
  adsKey: "adsKey",
  bearerToken: "formsToken",
  sessionCookie: "formsToken",
  metricsToken: "metricsToken",
};

/** Header values that must differ per request or come from the caller's own account. */
const HEADER_VALUES: Record<string, string> = {
  "idempotency-key": "{{$guid}}",
  "x-workspace-id": "{{workspaceId}}",
};

/**
 * Body fields whose example cannot be sent as it is: the time the visitor loaded the form must
 * be now, so it is the {{nowMs}} variable the collection sets before each request.
 */
const BODY_VALUES: Record<string, string> = { loaded_at: "{{nowMs}}" };
const NOW_SCRIPT = "pm.variables.set('nowMs', String(Date.now()));";

/** A raw JSON body with the fields of BODY_VALUES replaced by their (unquoted) variables. */
function withBodyValues(raw: string): string {
  let text = raw;
  for (const [field, value] of Object.entries(BODY_VALUES)) {
    text = text.replace(new RegExp(`("${field}"\\s*:\\s*)-?\\d+(\\.\\d+)?`, "g"), `$1${value}`);
  }
  return text;
}

/** The converter's options: values from the document's examples, optional parameters off. */
export const CONVERTER_OPTIONS = {
  folderStrategy: "Tags",
  parametersResolution: "Example",
  enableOptionalParameters: false,
  requestNameSource: "Fallback",
} as const;

function convert(doc: Json): Promise<Json> {
  return new Promise((resolve, reject) => {
    Converter.convertV2(
      { type: "json", data: doc },
      CONVERTER_OPTIONS,
      (err: { message: string } | null, result: Json) => {
        if (err) return reject(new Error(err.message));
        if (!result.result) return reject(new Error(`conversion failed: ${result.reason}`));
        resolve(result.output[0].data);
      },
    );
  });
}

/** Every request item of a collection, folders flattened. */
export function* requests(items: Json[]): Generator<Json> {
  for (const item of items) {
    if (item.item) yield* requests(item.item);
    else if (item.request) yield item;
  }
}

/** The document's operation a converted request stands for (by method and path). */
function operationOf(doc: Json, item: Json): Json {
  const segments: string[] = item.request.url.path ?? [];
  const path = "/" + segments.map((s) => s.startsWith(":") ? `{${s.slice(1)}}` : s).join("/");
  return doc.paths[path]?.[item.request.method.toLowerCase()];
}

/** The collection for `doc`, each request's credential in its own variable. */
export async function postmanCollection(doc: Json): Promise<Json> {
  const collection = await convert(doc);
  for (const item of requests(collection.item)) {
    const op = operationOf(doc, item);
    if (!op) throw new Error(`${item.request.method} ${item.name}: no operation in the document`);
    const scheme = op.security?.length ? Object.keys(op.security[0])[0] : null;
    const variable = scheme ? CREDENTIAL_VARIABLES[scheme] ?? scheme : null;
    item.request.auth = variable
      ? { type: "bearer", bearer: [{ key: "token", value: `{{${variable}}}`, type: "string" }] }
      : { type: "noauth" };
    if (item.request.body?.mode === "raw") {
      item.request.body.raw = withBodyValues(item.request.body.raw);
    }
    for (const header of item.request.header ?? []) {
      const value = HEADER_VALUES[String(header.key).toLowerCase()];
      if (value) header.value = value;
    }
  }
  const variables = new Set(Object.values(CREDENTIAL_VARIABLES));
  collection.variable = [
    ...(collection.variable ?? []).filter((v: Json) => !variables.has(v.key)),
    ...[...variables, "workspaceId"].map((key) => ({ key, value: "", type: "string" })),
  ];
  collection.event = [
    ...(collection.event ?? []),
    { listen: "prerequest", script: { type: "text/javascript", exec: [NOW_SCRIPT] } },
  ];
  return collection;
}

if (import.meta.main) {
  const base = Deno.args[0] ?? "http://localhost:8080";
  const res = await fetch(new URL("/api/openapi", base));
  if (!res.ok) throw new Error(`GET ${base}/api/openapi answered ${res.status}`);
  console.log(JSON.stringify(await postmanCollection(await res.json()), null, 2));
}
