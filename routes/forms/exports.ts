// Data exports of a questionnaire's sessions and answers: create (admin+), status, and a
// download that streams from the database to the response (lib/forms/export.ts).

import { user } from "../../lib/forms/auth.ts";
import type { Sql } from "../../lib/db/db.ts";
import {
  batchReader,
  EXPORT_FORMATS,
  exportBatchSize,
  type ExportFormat,
  exportHead,
  exportStream,
  refreshStatistics,
} from "../../lib/forms/export.ts";
import { json } from "../../lib/http/router.ts";
import { createdAnswer, formsRoutes, notFound } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";

/** The workspace's exports, from the origins it allows. */
const exportRoute = formsRoutes({ tag: "exports", cors: "credentialed" });

interface ExportRow {
  id: string;
  questionnaire_id: string;
  slug: string;
  format: ExportFormat;
  as_of: Date;
  created_at: Date;
}

const exportSchema = s.named(
  "Export",
  s.object({
    id: s.uuid(),
    questionnaire_id: s.uuid(),
    format: s.enumOf(EXPORT_FORMATS),
    status: s.enumOf(["ready"]),
    sessions: s.int({ min: 0, description: "Sessions the export holds.", example: 1 }),
    as_of: s.dateTime("Data up to this moment is included."),
    created_at: s.dateTime(),
    download_url: s.string({
      description: "Path of the download, relative to the service.",
      example: "/api/v1/exports/3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c/download",
    }),
  }),
);

const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8; header=present",
  ndjson: "application/x-ndjson; charset=utf-8",
};
const CSV_EXAMPLE =
  "\uFEFFsession_id,name,email,started_at,completed_at,How did you hear about us?\r\n" +
  "4503599627370497,Ana Lima,ana@example.com,2026-11-20T08:15:30Z,2026-11-20T08:16:02Z,Radio\r\n";
const NDJSON_EXAMPLE = JSON.stringify({
  session_id: 4503599627370497,
  name: "Ana Lima",
  email: "ana@example.com",
  started_at: "2026-11-20T08:15:30Z",
  completed_at: "2026-11-20T08:16:02Z",
  answers: { "101": "Radio" },
}) + "\n";

function iso(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

async function findExport(sql: Sql, id: string, workspaceId: string): Promise<ExportRow> {
  const [row] = await sql<ExportRow>`
    select e.id, e.questionnaire_id, q.slug, e.format, e.as_of, e.created_at
    from exports e join questionnaires q on q.id = e.questionnaire_id
    where e.id = ${id} and e.workspace_id = ${workspaceId} and q.state <> 'deleted'`;
  if (!row) throw notFound("No such export.");
  return row;
}

async function present(sql: Sql, row: Omit<ExportRow, "slug">) {
  const [count] = await sql<{ n: number }>`
    select count(*)::int as n from sessions
    where questionnaire_id = ${row.questionnaire_id} and started_at <= ${row.as_of}`;
  return {
    id: row.id,
    questionnaire_id: row.questionnaire_id,
    format: row.format,
    status: "ready" as const,
    sessions: count.n,
    as_of: iso(row.as_of),
    created_at: iso(row.created_at),
    download_url: `/api/v1/exports/${row.id}/download`,
  };
}

export const routes = [
  exportRoute({
    method: "POST",
    path: "/api/v1/exports",
    summary: "Export a questionnaire's answers",
    description: "Creates an export of the sessions and answers of a questionnaire of the " +
      "workspace (admin or owner), as of this moment: sessions started and answers given " +
      "later are left out, so every download of it holds the same rows. Answers 202 with the " +
      "export, whose status is `ready` at once: the file is produced while it is downloaded " +
      "(streamed from the database, so any size exports in bounded memory). A questionnaire " +
      "of another workspace, or deleted: 404 (field questionnaire_id). Accepts " +
      "Idempotency-Key.",
    auth: user("admin"),
    body: s.named(
      "ExportRequest",
      s.object({ questionnaire_id: s.uuid(), format: s.enumOf(EXPORT_FORMATS) }),
    ),
    idempotent: true,
    responses: {
      202: {
        description: "The export.",
        schema: exportSchema,
        headers: { Location: "The export's status resource." },
      },
    },
    handler: ({ app, body, principal, req }) => {
      const now = app.clock();
      return app.db.begin(async (tx) => {
        const [row] = await tx<Omit<ExportRow, "slug">>`
          insert into exports
            (workspace_id, questionnaire_id, created_by, format, as_of, created_at)
          select q.workspace_id, q.id, ${principal.userId}, ${body.format}, ${now}, ${now}
          from questionnaires q
          where q.id = ${body.questionnaire_id} and q.workspace_id = ${principal.workspaceId}
            and q.state <> 'deleted'
          returning id, questionnaire_id, format, as_of, created_at`;
        if (!row) {
          throw notFound("No such questionnaire.", "questionnaire_id");
        }
        return createdAnswer(tx, req, 202, "/api/v1/exports", await present(tx, row));
      });
    },
  }),
  exportRoute({
    method: "GET",
    path: "/api/v1/exports/{id}",
    summary: "An export's status",
    description: "The export (admin or owner). An export of another workspace: 404.",
    auth: user("admin"),
    params: { id: s.uuid() },
    responses: { 200: { description: "The export.", schema: exportSchema } },
    handler: async ({ app, params, principal }) => {
      return json(
        await present(app.db.sql, await findExport(app.db.sql, params.id, principal.workspaceId)),
      );
    },
  }),
  exportRoute({
    method: "GET",
    path: "/api/v1/exports/{id}/download",
    summary: "Download an export",
    description: "Streams the file. CSV (text/csv, UTF-8 with BOM, RFC 4180: CRLF line " +
      "breaks, fields with a comma, quote or line break quoted, quotes doubled): a header " +
      "row `session_id,name,email,started_at,completed_at` followed by one column per " +
      "question (its title, in question order), then one row per session in session id " +
      "order; an unanswered question is an empty field. Any field that starts with `=`, " +
      "`+`, `-`, `@`, tab or carriage return gets a leading `'` so that spreadsheets do not " +
      "run it as a formula. NDJSON (application/x-ndjson): one object per session " +
      "`{session_id, name, email, started_at, completed_at, answers: {<question id>: text}}`, " +
      "values unchanged.",
    auth: user("admin"),
    params: { id: s.uuid() },
    responses: {
      200: {
        description: "The file, in the export's format.",
        content: {
          [CONTENT_TYPES.csv]: { example: CSV_EXAMPLE },
          [CONTENT_TYPES.ndjson]: { example: NDJSON_EXAMPLE },
        },
        headers: {
          "Content-Disposition": 'attachment; filename="<slug>-<as_of date>.csv" (or .ndjson)',
        },
      },
    },
    handler: async ({ app, params, principal }) => {
      const row = await findExport(app.db.sql, params.id, principal.workspaceId);
      await refreshStatistics(app.db, row.questionnaire_id);
      const stream = exportStream(
        await exportHead(app.db.sql, row.format, row.questionnaire_id),
        batchReader(app.db.sql, row.format, row.questionnaire_id, row.as_of),
        exportBatchSize(app.db),
        app.config.databaseTimeoutMs,
      );
      // Only characters that are safe in any file system and in the quoted header value.
      const filename = `${row.slug}-${iso(row.as_of).slice(0, 10)}.${row.format}`
        .replace(/[^A-Za-z0-9._-]/g, "_");
      return new Response(stream, {
        status: 200,
        headers: {
          "Content-Type": CONTENT_TYPES[row.format],
          "Content-Disposition": `attachment; filename="${filename}"`,
          "Cache-Control": "no-store",
        },
      });
    },
  }),
];
