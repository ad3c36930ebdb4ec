// The per-workspace webhook signing secret: 32 random bytes, base64, in the Standard Webhooks
// "whsec_" form, generated when a workspace is created.

export function newSigningSecret(): string {
  return "whsec_" + btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
}
