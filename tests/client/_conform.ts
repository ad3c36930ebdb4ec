// Checks a real response against what the OpenAPI document declares for its operation: the
// status is declared, every required header is sent, every header the service sends on
// purpose is declared and fits its schema, and the body fits the schema of its media type.

import { validate } from "../_json_schema.ts";

// deno-lint-ignore no-explicit-any
type Doc = any;

/** Headers the service sends on purpose; each must be declared where it is sent. */
const MEANINGFUL = [
  "x-trace-id",
  "x-api-version",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "ratelimit",
  "ratelimit-policy",
  "retry-after",
  "idempotent-replayed",
  "deprecation",
  "sunset",
  "link",
  "allow",
  "www-authenticate",
  "location",
  "set-cookie",
  "etag",
  "content-disposition",
  "x-spec-version",
];

export function deref(doc: Doc, node: Doc): Doc {
  while (node?.$ref) {
    node = node.$ref.slice(2).split("/").reduce((n: Doc, p: string) => n[p], doc);
  }
  return node;
}

/** The operation of the document's webhooks section that delivers events of `type`. */
export function webhookOperation(doc: Doc, type: string): Doc {
  return doc.webhooks?.[type]?.post;
}

/** A header value as its schema types it (headers are text on the wire). */
function headerValue(schema: Doc, raw: string): unknown {
  return schema?.type === "integer" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

/** Checks declared headers against those of `headers`; answers the problems found. */
export function conformHeaders(doc: Doc, declared: Record<string, Doc>, headers: Headers) {
  const problems: string[] = [];
  const byName = new Map(
    Object.entries(declared).map(([k, v]) => [k.toLowerCase(), deref(doc, v)]),
  );
  for (const [name, header] of byName) {
    const value = headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`required header ${name} is missing`);
      continue;
    }
    if (!header.schema) continue;
    for (const p of validate(doc, header.schema, headerValue(deref(doc, header.schema), value))) {
      problems.push(`header ${name}: ${p}`);
    }
  }
  for (const name of headers.keys()) {
    if (MEANINGFUL.includes(name) && !byName.has(name)) {
      problems.push(`header ${name} is sent but not declared`);
    }
  }
  return problems;
}

/**
 * The ways `response` (to `method` on the document path `template`) departs from the
 * document; empty when it conforms. Reads a clone of the body.
 */
export async function conform(
  doc: Doc,
  method: string,
  template: string,
  response: Response,
): Promise<string[]> {
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op) return [`${method} ${template} is not in the document`];
  const declared = deref(doc, op.responses[String(response.status)]);
  if (!declared) return [`status ${response.status} is not declared`];
  const problems = conformHeaders(doc, declared.headers ?? {}, response.headers);
  const text = await response.clone().text();
  if (!declared.content) {
    if (text !== "") problems.push("a body where none is declared");
    return problems;
  }
  const type = (response.headers.get("content-type") ?? "").split(";")[0].trim();
  const media = Object.entries(declared.content as Record<string, Doc>)
    .find(([key]) => key.split(";")[0].trim() === type)?.[1];
  if (!media) return [...problems, `content type ${type} is not declared`];
  if (type === "application/json") {
    problems.push(...validate(doc, media.schema, JSON.parse(text)));
  } else if (deref(doc, media.schema)?.type !== "string") {
    problems.push(`${type} body without a string schema`);
  }
  return problems;
}
