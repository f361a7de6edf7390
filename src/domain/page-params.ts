/** The consent page's query parameters, read once (spec §2 Routes and query parameters). */
export type TPageParams = {
  /** Required for the consent fetch and sign-in; null when absent or blank. */
  clientId: string | null;
  /** Embedded in a merchant's page (embed=true); otherwise standalone with a QR link. */
  embed: boolean;
  /** Public read-only mode (public=true). */
  isPublic: boolean;
  /** Full screen (fs=true). */
  fullScreen: boolean;
  /** Page colour as '#rrggbb' lower-case, or null when absent or not a hex colour. */
  background: string | null;
  authAppId: string | null;
  /** Read but unused (spec §2); kept so the page can pass it on unchanged. */
  deeplink: string | null;
};

const text = (params: URLSearchParams, name: string): string | null =>
  params.get(name)?.trim() || null;

// Only the literal 'true' turns a flag on, so 'embed=false' or 'embed=0' never embeds by mistake.
const flag = (params: URLSearchParams, name: string): boolean =>
  text(params, name)?.toLowerCase() === 'true';

/** '#FFF', 'fff', '#A1B2C3' → '#ffffff', '#a1b2c3'; anything else → null (spec §2: 3 or 6 hex digits). */
export function normaliseHexColour(value: string): string | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match?.[1]) return null;
  const hex = match[1].toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex}`;
}

/**
 * Reads the page's query string (with or without '?'). The colour comes from the first of bg,
 * bgColor, background that is present; an invalid one gives null rather than falling through,
 * so a merchant's typo shows the default colour instead of another parameter's.
 */
export function parsePageParams(search: string): TPageParams {
  const params = new URLSearchParams(search);
  const colourParam = ['bg', 'bgColor', 'background']
    .map((name) => text(params, name))
    .find((value) => value !== null);
  return {
    clientId: text(params, 'clientId'),
    embed: flag(params, 'embed'),
    isPublic: flag(params, 'public'),
    fullScreen: flag(params, 'fs'),
    background: colourParam ? normaliseHexColour(colourParam) : null,
    authAppId: text(params, 'authAppId'),
    deeplink: text(params, 'deeplink'),
  };
}
