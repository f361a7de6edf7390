import { describe, expect, it } from 'vitest';
import { isWebOrigin, webOriginProblem } from './web-origin';

describe('webOriginProblem', () => {
  it.each([
    'https://shop.example',
    'https://shop.example:8443',
    'https://xn--bcher-kva.example',
    'https://1.2.3.4',
    'http://localhost:8080',
    'http://127.0.0.1:3000',
    'https://localhost',
  ])('accepts %s, an origin as a browser writes it', (origin) => {
    expect(webOriginProblem(origin)).toBeNull();
    expect(isWebOrigin(origin)).toBe(true);
  });

  it.each([
    // A comma ends a CSP policy: what follows would be read as another policy.
    ['https://x.example,https://y.example', 'must be one origin (no commas)'],
    ['https://x.example,y.example', 'must be one origin (no commas)'],
    ['https://*.example', 'must name one host (no wildcards)'],
    ['*', 'must name one host (no wildcards)'],
    [
      'https://shop.example/pay',
      'as a browser writes it (no path, user, default port or uppercase): https://shop.example',
    ],
    [
      'https://shop.example/',
      'as a browser writes it (no path, user, default port or uppercase): https://shop.example',
    ],
    ['https://shop.example?', 'https://shop.example'],
    ['https://shop.example#top', 'https://shop.example'],
    ['https://user:pass@shop.example', 'https://shop.example'],
    ['https://Shop.Example', 'https://shop.example'],
    ['HTTPS://shop.example', 'https://shop.example'],
    ['https://shop.example:443', 'https://shop.example'],
    ['http://localhost:80', 'http://localhost'],
    ['https://0x7f.1', 'https://127.0.0.1'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['https://shop .example', 'must not contain spaces'],
    [' https://shop.example', 'must not contain spaces'],
    ['https://shop.example ', 'must not contain spaces'],
    ['https://shop.example\t', 'must not contain spaces'],
    ['null', 'must be an origin such as https://shop.example'],
    ['', 'must be an origin such as https://shop.example'],
    ['shop.example', 'must be an origin such as https://shop.example'],
    ["'self'", 'must be an origin such as https://shop.example'],
    ['ftp://files.example', 'must be an https origin'],
    ['data:text/html,hi', 'must be one origin (no commas)'],
    ['javascript:alert(1)', 'must be an https origin'],
    ['http://shop.example', 'must be https (http only for localhost and 127.0.0.1)'],
    ['http://[::1]:3000', 'must be https (http only for localhost and 127.0.0.1)'],
    ['https://[::1]', 'must name its host with letters, digits, hyphens and dots'],
    ['https://shop_1.example', 'must name its host with letters, digits, hyphens and dots'],
    ['https://shop.example.', 'must name its host with letters, digits, hyphens and dots'],
    ["https://shop.example'", 'must name its host with letters, digits, hyphens and dots'],
    ['https://shop.example;', 'must name its host with letters, digits, hyphens and dots'],
  ])('refuses %j: %s', (text, why) => {
    expect(webOriginProblem(text)).toContain(why);
    expect(isWebOrigin(text)).toBe(false);
  });
});
