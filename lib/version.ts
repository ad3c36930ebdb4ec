// The release version of the service, reported by /status.
export const VERSION = "0.1.0";
