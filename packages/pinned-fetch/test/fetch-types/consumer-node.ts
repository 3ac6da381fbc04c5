// The Node-only half of ./consumer.ts: proves this compilation really has no DOM lib.
// @ts-expect-error: `document` exists only with the DOM lib.
export const page: unknown = document;
