// Plan limits: answers per calendar month (UTC) per workspace. A limited plan's count lives in
// one row per workspace and month, raised by a conditional UPDATE inside the answer's
// transaction: the row lock serializes concurrent answers, so the limit cannot be overshot,
// and a refused answer rolls back with the rest of its transaction (nothing stored).

import type { Config } from "./config.ts";
import type { Sql } from "./db.ts";
import { ApiError } from "./errors.ts";

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
  return new ApiError(
    422,
    "UNPROCESSABLE",
    `This workspace has used the ${limit} answers per month of its ${plan} plan.`,
    "plan.answers_per_month",
  );
}

/**
 * Counts one answer against the workspace's plan, or throws 422 when the month is full. (The
 * public answer route counts with the same statements inside onda_record_answer, in
 * sql/003_forms.sql, with `answerLimits`, `unlimitedShard` and `monthFull`: keep the two
 * alike.) Call
 * it last in the answer's transaction: a limited plan holds its counter row locked until
 * commit, and the shorter that is, the more answers per second one workspace can take.
 */
export async function countAnswer(
  tx: Sql,
  config: Config,
  workspaceId: string,
  plan: Plan,
  now: Date,
): Promise<void> {
  const limit = answersPerMonth(config, plan);
  const month = monthOf(now);
  if (limit === null) {
    const shard = unlimitedShard();
    await tx`
      insert into plan_usage (workspace_id, month, shard, answers)
      values (${workspaceId}, ${month}::date, ${shard}, 1)
      on conflict (workspace_id, month, shard) do update set answers = plan_usage.answers + 1`;
    return;
  }
  // Answers counted in other shards (while the workspace was on an unlimited plan this month)
  // count against the limit too.
  const rows = await tx`
    with others as (
      select coalesce(sum(answers), 0)::int as n from plan_usage
      where workspace_id = ${workspaceId} and month = ${month}::date and shard <> 0
    )
    insert into plan_usage (workspace_id, month, shard, answers)
    select ${workspaceId}, ${month}::date, 0, 1 from others where others.n < ${limit}::int
    on conflict (workspace_id, month, shard) do update set answers = plan_usage.answers + 1
    where plan_usage.answers + (select n from others) < ${limit}::int
    returning answers`;
  if (!rows.length) throw monthFull(plan, limit);
}

/** Answers counted this month. */
export async function answersThisMonth(sql: Sql, workspaceId: string, now: Date) {
  const [row] = await sql<{ answers: number }>`
    select coalesce(sum(answers), 0)::int as answers from plan_usage
    where workspace_id = ${workspaceId} and month = ${monthOf(now)}::date`;
  return row.answers;
}
