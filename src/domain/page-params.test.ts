import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseHexColour, parsePageParams } from './page-params';

describe('parsePageParams', () => {
  it('reads every parameter', () => {
    expect(
      parsePageParams(
        '?clientId=cli_1&embed=true&public=true&fs=true&bg=FE7048&authAppId=app&deeplink=x',
      ),
    ).toEqual({
      clientId: 'cli_1',
      embed: true,
      isPublic: true,
      fullScreen: true,
      background: '#fe7048',
      authAppId: 'app',
      deeplink: 'x',
    });
  });

  it('defaults everything when the query is empty', () => {
    expect(parsePageParams('')).toEqual({
      clientId: null,
      embed: false,
      isPublic: false,
      fullScreen: false,
      background: null,
      authAppId: null,
      deeplink: null,
    });
  });

  it.each([
    ['clientId=%20cli_1%20', 'cli_1'],
    ['clientId=', null],
    ['clientId=%20%20', null],
  ])('trims clientId and treats blank as missing: %j', (search, clientId) => {
    expect(parsePageParams(search).clientId).toBe(clientId);
  });

  it.each([
    ['embed=true', true],
    ['embed=TRUE', true],
    ['embed=false', false],
    ['embed=1', false],
    ['embed', false],
  ])('embeds only on the literal true: %j', (search, embed) => {
    expect(parsePageParams(search).embed).toBe(embed);
  });

  it.each([
    ['bg=fff', '#ffffff'],
    ['bg=%23ABC', '#aabbcc'],
    ['bgColor=1f2937', '#1f2937'],
    ['background=%231F2937', '#1f2937'],
    ['bg=fff&bgColor=000&background=111', '#ffffff'],
    ['bgColor=000&background=111', '#000000'],
    ['bg=zzz&bgColor=000', null],
    ['bg=ffff', null],
    ['bg=', null],
  ])('takes the colour from bg, bgColor, background in that order: %j → %j', (search, colour) => {
    expect(parsePageParams(search).background).toBe(colour);
  });
});

describe('normaliseHexColour', () => {
  it('gives #rrggbb lower-case for any 3 or 6 hex digits, with or without #', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-fA-F]{3}$|^[0-9a-fA-F]{6}$/),
        fc.boolean(),
        (hex, hash) => {
          const colour = normaliseHexColour(`${hash ? '#' : ''}${hex}`);
          expect(colour).toMatch(/^#[0-9a-f]{6}$/);
          expect(normaliseHexColour(colour ?? '')).toBe(colour);
        },
      ),
    );
  });
});
