// Webhook signatures through Web Crypto: x-service-signature (hex HMAC-SHA256 of the raw body)
// and the Standard Webhooks headers (webhook-signature: v1,<base64 HMAC of "id.timestamp.body">).
//
// Key material: x-service-signature is keyed with the secret string exactly as the API shows
// it (what `createHmac("sha256", secret)` does); the Standard Webhooks signature with the
// base64-decoded part after "whsec_" (what the standardwebhooks libraries do with the same
// string). During the 24 h after a rotation both secrets sign: each header then carries two
// signatures, the new secret's first (comma-separated hex digests in x-service-signature,
// space-separated "v1,..." entries in webhook-signature), and a receiver accepts either.

import { base64, fromBase64, hex } from "../encoding.ts";

const SECRET_PREFIX = "whsec_";
const encoder = new TextEncoder();

/** A workspace's new signing secret: 32 random bytes in the Standard Webhooks form. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + base64(crypto.getRandomValues(new Uint8Array(32)));
}

/** A workspace's signing secrets, as stored. */
export interface SigningSecrets {
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/** The secrets that sign now: the current one, and the previous one until it expires. */
export function activeSecrets(workspace: SigningSecrets, now: Date): string[] {
  const previous = workspace.previous_signing_secret;
  const expires = workspace.previous_secret_expires_at;
  return previous && expires && expires > now
    ? [workspace.signing_secret, previous]
    : [workspace.signing_secret];
}

/** The Standard Webhooks key of a secret; a secret not in whsec_/base64 form is used as text. */
function standardWebhooksKey(secret: string): Uint8Array<ArrayBuffer> {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  try {
    return fromBase64(encoded);
  } catch {
    return encoder.encode(secret);
  }
}

// A delivery: its id, its event's id (webhook-id, the same on every attempt) and type, and the
// exact body that is sent.
export type Delivery = { id: string; event_id: string; event_type: string; body: string };

/**
 * A signer with its own cache of imported keys (importing a key costs more than the HMAC).
 * The cache is per worker and bounded; secrets stay in memory only.
 */
export function createSigner(maxKeys = 1000) {
  const keys = new Map<string, Promise<CryptoKey>>();
  const keyFor = (kind: "hex" | "std", secret: string) => {
    const id = kind + ":" + secret;
    let key = keys.get(id);
    if (!key) {
      if (keys.size >= maxKeys) keys.clear();
      const raw = kind === "hex" ? encoder.encode(secret) : standardWebhooksKey(secret);
      key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [
        "sign",
      ]);
      keys.set(id, key);
    }
    return key;
  };
  /** The headers of the attempt of `delivery` at `at`, signed with each secret. */
  return async (secrets: string[], delivery: Delivery, at: Date): Promise<Headers> => {
    const timestamp = String(Math.floor(at.getTime() / 1000));
    const body = encoder.encode(delivery.body);
    const signedContent = encoder.encode(`${delivery.event_id}.${timestamp}.${delivery.body}`);
    const hexSignatures: string[] = [];
    const standard: string[] = [];
    for (const secret of secrets) {
      const [a, b] = await Promise.all([
        crypto.subtle.sign("HMAC", await keyFor("hex", secret), body),
        crypto.subtle.sign("HMAC", await keyFor("std", secret), signedContent),
      ]);
      hexSignatures.push(hex(new Uint8Array(a)));
      standard.push("v1," + base64(new Uint8Array(b)));
    }
    return new Headers({
      "content-type": "application/json",
      "user-agent": "Onda-Webhooks/1",
      "x-service-event": delivery.event_type,
      "x-service-delivery": delivery.id,
      "x-service-timestamp": timestamp,
      "x-service-signature": hexSignatures.join(","),
      "webhook-id": delivery.event_id,
      "webhook-timestamp": timestamp,
      "webhook-signature": standard.join(" "),
    });
  };
}
