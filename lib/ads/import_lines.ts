// The lines of an `admin import` file: read from the stream, parsed, checked field by field
// (a bad one is `line N, field F: ...`), and written as the binary COPY tuples of their tables.

import { SCOPE_ID } from "./params.ts";
import { tupleWriter } from "../db/copy_binary.ts";
import { type Instant, microsBetween, parseInstant } from "./iso_instant.ts";

/** A refused import: the message names the line and field; nothing of the import was kept. */
export class ImportError extends Error {}

/** The allowed values of an occurrence's duration_precision and review_state (sql/002_ads.sql). */
export const DURATION_PRECISIONS = ["estimated", "detected", "human_confirmed"];
export const REVIEW_STATES = ["pending", "confirmed", "rejected"];
const PRECISIONS = new Set(DURATION_PRECISIONS);
const STATES = new Set(REVIEW_STATES);
/** An occurrence longer than this is a data error, not an advertisement. */
const MAX_OCCURRENCE_MS = 86_400_000;

export const OCCURRENCE_COLUMNS = [
  "id",
  "snapshot_seq",
  "station_id",
  "ad_started_at",
  "ad_ended_at",
  "duration_ms",
  "duration_precision",
  "review_state",
  "brand_ids",
];
export const CAPTURE_COLUMNS = ["id", "snapshot_seq", "station_id", "started_at", "ended_at"];

/** The fields of each line type: its table's columns but those the import fills. */
const FILLED = ["snapshot_seq", "duration_ms"];
const FIELDS: Record<string, string[]> = {
  snapshot: ["type", "id", "exported_at"],
  station: ["type", "id", "name"],
  brand: ["type", "id", "name"],
  occurrence: ["type", ...OCCURRENCE_COLUMNS.filter((c) => !FILLED.includes(c))],
  capture: ["type", ...CAPTURE_COLUMNS.filter((c) => !FILLED.includes(c))],
};

/** A line of the file, parsed; and what it refers to that is defined so far. */
type Line = Record<string, unknown>;
interface Known {
  seq: number;
  stations: Set<string>;
  brands: Set<string>;
}
type Tuples = ReturnType<typeof tupleWriter>;

/** Lines of a UTF-8 stream, numbered from 1, without their line terminators. */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<{ n: number; text: string }> {
  let rest = "";
  let n = 0;
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    for (const part of parts) {
      yield { n: ++n, text: part.endsWith("\r") ? part.slice(0, -1) : part };
    }
  }
  if (rest !== "") yield { n: ++n, text: rest };
}

/** Escapes a value for COPY's text format. */
export function copyText(value: string): string {
  return /[\\\t\n\r]/.test(value)
    ? value.replaceAll("\\", "\\\\").replaceAll("\t", "\\t").replaceAll("\n", "\\n")
      .replaceAll("\r", "\\r")
    : value;
}

export function fail(n: number, field: string | null, message: string): never {
  throw new ImportError(`line ${n}${field ? `, field ${field}` : ""}: ${message}`);
}

export function parseLine(n: number, text: string): Line {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail(n, null, "not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail(n, null, "must be a JSON object");
  }
  const record = value as Line;
  const known = FIELDS[record.type as string];
  if (!known) {
    fail(n, "type", "must be one of snapshot, station, brand, occurrence, capture");
  }
  for (const key in record) if (!known.includes(key)) fail(n, key, "is not a known field");
  return record;
}

export function idField(n: number, record: Line, field: string): string {
  const value = record[field];
  if (typeof value !== "string" || !SCOPE_ID.test(value)) {
    fail(n, field, "must be 1 to 64 letters, digits, dots, underscores or hyphens");
  }
  return value;
}

export function timeField(n: number, record: Line, field: string): Instant {
  const value = record[field];
  const instant = typeof value === "string" ? parseInstant(value) : null;
  if (!instant) fail(n, field, "must be an ISO 8601 date-time with a time zone");
  return instant;
}

/** A station id defined earlier in this file or by an earlier import. */
function stationField(n: number, record: Line, stations: Set<string>): string {
  const station = idField(n, record, "station_id");
  if (!stations.has(station)) {
    fail(n, "station_id", `station ${station} is not defined before this line`);
  }
  return station;
}

export function nameField(n: number, record: Line): string {
  const name = record.name;
  if (typeof name !== "string" || name.length === 0 || name.length > 200) {
    fail(n, "name", "must be a string of 1 to 200 characters");
  }
  return name;
}

/** Checks an occurrence line and writes it as a binary COPY tuple (OCCURRENCE_COLUMNS). */
export function writeOccurrence(out: Tuples, n: number, record: Line, known: Known): void {
  // The id is checked as it is written: a failure abandons the whole COPY, tuple and all.
  out.tuple(OCCURRENCE_COLUMNS.length);
  const id = record.id;
  if (typeof id !== "string" || !out.uuid(id)) fail(n, "id", "must be a UUID");
  const station = stationField(n, record, known.stations);
  const from = timeField(n, record, "ad_started_at");
  const to = timeField(n, record, "ad_ended_at");
  if (microsBetween(from, to) < 0) fail(n, "ad_ended_at", "must not be before ad_started_at");
  if (microsBetween(from, to) > MAX_OCCURRENCE_MS * 1000) {
    fail(n, "ad_ended_at", "an occurrence lasts at most 24 hours");
  }
  const precision = record.duration_precision;
  if (typeof precision !== "string" || !PRECISIONS.has(precision)) {
    fail(n, "duration_precision", `must be one of ${DURATION_PRECISIONS.join(", ")}`);
  }
  const state = record.review_state;
  if (typeof state !== "string" || !STATES.has(state)) {
    fail(n, "review_state", `must be one of ${REVIEW_STATES.join(", ")}`);
  }
  const list = record.brand_ids;
  if (!Array.isArray(list) || list.length === 0 || list.length > 20) {
    fail(n, "brand_ids", "must be a list of 1 to 20 brand ids");
  }
  for (const brand of list) {
    if (typeof brand !== "string" || !known.brands.has(brand)) {
      fail(n, "brand_ids", `brand ${String(brand)} is not defined before this line`);
    }
  }
  // Sorted and without repeats, so that equal brand sets are one set of ads_brand_sets.
  const sorted = list.length === 1 ? list as string[] : [...new Set(list as string[])].sort();
  out.int4(known.seq);
  out.text(station);
  out.timestamptz(from.ms, from.micros);
  out.timestamptz(to.ms, to.micros);
  out.int4(to.ms - from.ms);
  out.text(precision);
  out.text(state);
  out.textArray(sorted);
}

/** Checks a capture line and writes it as a binary COPY tuple (CAPTURE_COLUMNS). */
export function writeCapture(out: Tuples, n: number, record: Line, known: Known): void {
  const id = idField(n, record, "id");
  const station = stationField(n, record, known.stations);
  const from = timeField(n, record, "started_at");
  const to = timeField(n, record, "ended_at");
  if (microsBetween(from, to) <= 0) fail(n, "ended_at", "must be after started_at");
  out.tuple(CAPTURE_COLUMNS.length);
  out.text(id);
  out.int4(known.seq);
  out.text(station);
  out.timestamptz(from.ms, from.micros);
  out.timestamptz(to.ms, to.micros);
}
