// The consent page carries its icon in its HTML (index.html: no request beside its first paint);
// the other pages ask for public/favicon.svg. Both are the same icon.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const WEB = path.resolve(import.meta.dirname);

it("the consent page's icon, in its HTML, is public/favicon.svg", () => {
  const html = readFileSync(path.join(WEB, 'index.html'), 'utf8');
  const href = /<link\s+rel="icon"\s+href="data:image\/svg\+xml,([^"]+)"/.exec(html)?.[1];
  expect(href, 'index.html names its icon as a data: URL').toBeDefined();
  const file = readFileSync(path.join(WEB, 'public/favicon.svg'), 'utf8').trim();
  expect(decodeURIComponent(href ?? '')).toBe(file.replaceAll('"', "'"));
});
