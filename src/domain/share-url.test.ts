import { describe, expect, it } from 'vitest';
import { shareConsentUrl } from './share-url';

describe('shareConsentUrl', () => {
  it('links to the same page, standalone on white, with the clientId', () => {
    const url = new URL(
      shareConsentUrl(
        'https://pay.example/r/cns_1?clientId=cli_1&embed=true&bgColor=000#x',
        'cli_1',
      ),
    );
    expect(url.origin + url.pathname).toBe('https://pay.example/r/cns_1');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      clientId: 'cli_1',
      embed: 'false',
      bg: 'FFFFFF',
    });
    expect(url.hash).toBe('');
  });

  it('adds the clientId when the page URL lacks it and keeps other parameters', () => {
    const url = new URL(shareConsentUrl('https://pay.example/r/cns_1?public=true', 'cli_2'));
    expect(url.searchParams.get('clientId')).toBe('cli_2');
    expect(url.searchParams.get('public')).toBe('true');
  });
});
