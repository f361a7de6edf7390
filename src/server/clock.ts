/**
 * The server's clock: every expiry, every "now" of a request comes from it. The app holds one
 * (the system clock unless a test hands it another), so a test can fix time for a whole app
 * without faking the process's Date.
 */
export type TClock = { now(): Date };

export const systemClock: TClock = { now: () => new Date() };
