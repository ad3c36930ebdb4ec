// Plan limits: answers per calendar month (UTC) per workspace. A limited plan's count lives in
// one row per workspace and month, raised by a conditional UPDATE inside the answer's
// transaction: the row lock serializes concurrent answers, so the limit cannot be overshot,
// and a refused answer rolls back with the rest of its transaction (nothing stored).

import type { Config } from "../config.ts";
import type { Sql } from "../db/db.ts";
import { ApiError } from "../errors.ts";

export type Plan = "free" | "pro" | "business";
export const PLANS: readonly Plan[] = ["free", "pro", "business"];

/** The monthly answer limit of a plan; null = unlimited. */
export function answersPerMonth(config: Config, plan: Plan): number | null {
  if (plan === "free") return config.planFreeAnswersPerMonth;
  if (plan === "pro") return config.planProAnswersPerMonth;
  return null;
}

/** First day of the calendar month (UTC) of `now`, as YYYY-MM-DD. */
export function monthOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}-01`;
}

/** Shards of an unlimited plan's counter (1..UNLIMITED_SHARDS); limited plans use shard 0. */
const UNLIMITED_SHARDS = 64;

/** The counter shard of one answer under an unlimited plan. */
export function unlimitedShard(): number {
  return 1 + Math.floor(Math.random() * UNLIMITED_SHARDS);
}

/**
 * Every plan's monthly answer limit (null = unlimited) as JSON, for a statement that reads the
 * workspace's plan itself (billing can change it at any moment).
 */
export function answerLimits(config: Config): string {
  let limits = limitsOf.get(config);
  if (limits === undefined) {
    limits = JSON.stringify(Object.fromEntries(PLANS.map((p) => [p, answersPerMonth(config, p)])));
    limitsOf.set(config, limits);
  }
  return limits;
}

/** answerLimits per config (read once, never changed), as it is asked on every answer. */
const limitsOf = new WeakMap<Config, string>();

/** The 422 of an answer over the workspace's monthly limit. */
export function monthFull(plan: Plan, limit: number): ApiError {
  return new ApiError(422, "UNPROCESSABLE", {
    message: `This workspace has used the ${limit} answers per month of its ${plan} plan.`,
    field: "plan.answers_per_month",
  });
}

/** Answers counted this month. */
export async function answersThisMonth(sql: Sql, workspaceId: string, now: Date) {
  const [row] = await sql<{ answers: number }>`
    select coalesce(sum(answers), 0)::int as answers from plan_usage
    where workspace_id = ${workspaceId} and month = ${monthOf(now)}::date`;
  return row.answers;
}
