/**
 * The embed script's version: the package's, and the hosted script's address
 * (/sdk/v<version>/oya-consent.js, never changed once built; /sdk/v<major>/ follows the newest).
 * A change to what the script does is a new version: the build refuses to change a released one
 * (scripts/build-sdk.ts, sdk-releases/).
 */
export const SDK_VERSION = '1.1.0';
