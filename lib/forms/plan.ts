// Plan limits: answers per calendar month (UTC) per workspace. A limited plan's count lives in
// one row per workspace and month, raised by a conditional UPDATE inside the answer's
// transaction: the row lock serializes concurrent answers, so the limit cannot be overshot,
// and a refused answer rolls back with the rest of its transaction (nothing stored).

import type { Config } from "../config.ts";
import type { Sql } from "../db/db.ts";
import { ApiError } from "../errors.ts";

export const PLANS = ["free", "pro", "business"] as const;
export type Plan = typeof PLANS[number];

/** Every plan's monthly answer limit; null = unlimited. */
function limits(config: Config): Record<Plan, number | null> {
  return {
    free: config.planFreeAnswersPerMonth,
    pro: config.planProAnswersPerMonth,
    business: null,
  };
}

export function answersPerMonth(config: Config, plan: Plan): number | null {
  return limits(config)[plan];
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
 * Every plan's monthly answer limit as JSON, for a statement that reads the workspace's plan
 * itself (billing can change it at any moment).
 */
export function answerLimits(config: Config): string {
  return JSON.stringify(limits(config));
}

/** The 422 of an answer over the workspace's monthly limit. */
export function monthFull(config: Config, plan: Plan): ApiError {
  const limit = answersPerMonth(config, plan);
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
