import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CARD_BRAND_NAMES, type TCardBrand } from '../../domain/card-brand';
import { ZBankLogoParams, ZSignedUrlQuery, ZSignedUrlResponse } from '../../domain/schemas/assets';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import { bankNameOf, UNREADABLE_FOR_MS } from '../services/bank-names';
import { bankMonogramSvg, cardSchemeSvg, DEFAULT_BANK_LOGO_SVG } from './logo-svg';
import { jsonAnswers } from './responses';

/** An image answer: SVG text (the serializer leaves a string of a non-JSON type as it is). */
const ZSvgImage = z.string().describe('image/svg+xml');

/** Logos change with a release at most: a day in any cache. */
const LOGO_CACHE_CONTROL = 'public, max-age=86400';
/**
 * The default logo drawn for a bank while the banks' list cannot be read: kept no longer than
 * the list is left unasked (bank-names.ts), so the bank's own comes once the list does.
 */
const STANDING_IN_CACHE_CONTROL = `public, max-age=${UNREADABLE_FOR_MS / 1_000}`;

/**
 * Sends one of our SVGs. Its own Cache-Control is kept by the response headers hook (which adds
 * no-store only where a route chose none); its CSP lets nothing load or run even if the file is
 * opened on its own.
 */
const sendSvg = (reply: FastifyReply, body: string, cacheControl = LOGO_CACHE_CONTROL) =>
  reply
    .header('Content-Type', 'image/svg+xml')
    .header('Cache-Control', cacheControl)
    .header('Content-Security-Policy', "default-src 'none'")
    .send(body);

const schemeOf = (name: string): TCardBrand | null =>
  (Object.keys(CARD_BRAND_NAMES) as TCardBrand[]).find((brand) => brand === name.toLowerCase()) ??
  null;

/**
 * Bank and card-scheme logos (spec §7), drawn by us: with any payment provider, since the page
 * shows a logo for every bank and card. Bank names come from the banks capability's list
 * (services/bank-names.ts).
 */
export const logoRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const { config } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // spec §8: an unknown bank still gets a logo, the default one, never a broken image.
  r.get(
    '/api/bank-logos/:institutionCode',
    {
      schema: {
        operationId: 'getBankLogo',
        summary: 'Get a bank’s logo',
        params: ZBankLogoParams,
        response: jsonAnswers({ 200: ZSvgImage }),
      },
    },
    async (request, reply) => {
      const { institutionCode } = request.params;
      const { name, unreadable } = await bankNameOf(ctx, institutionCode);
      if (unreadable) return sendSvg(reply, DEFAULT_BANK_LOGO_SVG, STANDING_IN_CACHE_CONTROL);
      return sendSvg(reply, name ? bankMonogramSvg(institutionCode, name) : DEFAULT_BANK_LOGO_SVG);
    },
  );

  // The page asks for `logos/cardSchemes/{Scheme}.png` (spec §7); our marks are SVG, at a
  // stable address of ours, so the URL needs no signing.
  r.get(
    '/api/signed-url',
    {
      schema: {
        operationId: 'getCardSchemeLogoUrl',
        summary: 'Get the address of a card scheme’s logo',
        querystring: ZSignedUrlQuery,
        response: jsonAnswers({ 200: ZSignedUrlResponse }),
      },
    },
    async (request) => {
      const name = /^logos\/cardSchemes\/([A-Za-z]+)\.png$/.exec(request.query.imageKey)?.[1];
      const scheme = name ? schemeOf(name) : null;
      if (!scheme) throw new AppError('NOT_FOUND', 'imageKey: no logo for this card scheme');
      return {
        success: true as const,
        url: `${config.publicUrl}/api/card-scheme-logos/${scheme}.svg`,
      };
    },
  );

  r.get(
    '/api/card-scheme-logos/:scheme.svg',
    {
      schema: {
        operationId: 'getCardSchemeLogo',
        summary: 'Get a card scheme’s logo',
        params: z.object({ scheme: z.string().max(20) }),
        response: jsonAnswers({ 200: ZSvgImage }),
      },
    },
    async (request, reply) => {
      // Lower case only: the one address signed-url hands out for each scheme.
      const scheme = schemeOf(request.params.scheme);
      if (!scheme || scheme !== request.params.scheme) throw new AppError('NOT_FOUND');
      return sendSvg(reply, cardSchemeSvg(scheme));
    },
  );
};
