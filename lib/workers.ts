// Background workers started with the server and stopped on shutdown (signal aborted).
import type { AppContext } from "./http/router.ts";
import { webhookWorker } from "./webhooks/worker.ts";

export type Worker = (app: AppContext, signal: AbortSignal) => Promise<void>;

export const workers: Worker[] = [webhookWorker];
