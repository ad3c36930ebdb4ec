// The per-workspace webhook signing secret: 32 random bytes, base64, in the Standard Webhooks
// "whsec_" form, generated when a workspace is created.

import { base64 } from "../encoding.ts";

export function newSigningSecret(): string {
  return "whsec_" + base64(crypto.getRandomValues(new Uint8Array(32)));
}
