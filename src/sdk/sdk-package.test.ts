// The npm package as a merchant gets it (docs/sdk.md): built, packed with `npm pack`, unpacked
// into a shop's node_modules, imported by its name from Node (no window: a server render), and
// a merchant's TypeScript checked against its declarations.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildClassicScript, buildSdkPackage, PACKAGE_NAME } from '../../scripts/sdk-package';
import { HELLO_TIMEOUT_MS } from './oya-consent';
import { SDK_VERSION } from './version';

const root = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'oya-sdk-package-'));
const shop = path.join(work, 'shop');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

beforeAll(async () => {
  const built = path.join(work, 'package');
  await buildSdkPackage(built, await buildClassicScript());
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
    cwd: built,
    encoding: 'utf8',
  }).trim();
  const installed = path.join(shop, 'node_modules', PACKAGE_NAME);
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(work, packed), '-C', installed, '--strip-components=1']);
  // The shop's own React, as its peer dependency.
  mkdirSync(path.join(shop, 'node_modules/@types'), { recursive: true });
  for (const dependency of ['react', 'react-dom', 'scheduler', '@types/react']) {
    symlinkSync(
      path.join(root, 'node_modules', dependency),
      path.join(shop, 'node_modules', dependency),
    );
  }
  writeFileSync(path.join(shop, 'package.json'), JSON.stringify({ type: 'module', private: true }));
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('imports by its name and its react subpath on a server, and renders there', () => {
  writeFileSync(
    path.join(shop, 'server.js'),
    `import { open, consentPageUrl, SDK_VERSION, HELLO_TIMEOUT_MS } from '${PACKAGE_NAME}';
import { useOyaConsent, OyaConsentFrame } from '${PACKAGE_NAME}/react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
const url = consentPageUrl({ consentId: 'cns_1', clientId: 'cli_1', baseUrl: 'https://pay.example.com' });
const html = renderToString(createElement(OyaConsentFrame, { consentId: 'cns_1', clientId: 'cli_1', baseUrl: 'https://pay.example.com' }));
console.log(JSON.stringify({ open: typeof open, hook: typeof useOyaConsent, url: url.href, version: SDK_VERSION, hello: HELLO_TIMEOUT_MS, html }));
`,
  );
  const output = execFileSync(process.execPath, ['server.js'], { cwd: shop, encoding: 'utf8' });
  expect(JSON.parse(output)).toEqual({
    open: 'function',
    hook: 'function',
    url: 'https://pay.example.com/r/cns_1?clientId=cli_1&embed=true',
    version: SDK_VERSION,
    hello: HELLO_TIMEOUT_MS,
    html: '<div></div>',
  });
});

it("typechecks a merchant's code against its types: onEvent narrowed by type", () => {
  writeFileSync(
    path.join(shop, 'checkout.tsx'),
    `import { open, type TOyaConsentEvent, type TOyaConsentEventOf } from '${PACKAGE_NAME}';
import { OyaConsentFrame, useOyaConsent } from '${PACKAGE_NAME}/react';
import type {} from '${PACKAGE_NAME}/global';

const seen: string[] = [];
const embed = open({
  consentId: 'cns_1',
  clientId: 'cli_1',
  baseUrl: 'https://pay.example.com',
  onEvent(event: TOyaConsentEvent) {
    if (event.type === 'payment') seen.push(event.paymentId, event.status, event.method ?? '');
    if (event.type === 'failed') {
      const code: 'ORIGIN_NOT_REGISTERED' | 'FRAME_DID_NOT_LOAD' | 'CONSENT_FAILED' = event.code;
      seen.push(code, event.error);
    }
    // @ts-expect-error only 'resized' has a height
    seen.push(String(event.height));
  },
  onFailure: (event) => seen.push(event.code),
});
embed.close();
// @ts-expect-error a step the flow does not have
const step: TOyaConsentEventOf<'step'>['step'] = 'checkout';
// @ts-expect-error consentId without clientId
open({ consentId: 'cns_1', baseUrl: 'https://pay.example.com' });
window.OyaConsent?.open({ consentUrl: 'https://pay.example.com/r/cns_1?clientId=cli_1' });

export function PayButton() {
  const consent = useOyaConsent({ consentId: 'cns_1', clientId: 'cli_1', onSuccess: (event) => seen.push(event.consentId) });
  return (
    <>
      <button onClick={consent.open} disabled={consent.isOpen}>Pay</button>
      <OyaConsentFrame consentUrl="https://pay.example.com/r/cns_1?clientId=cli_1" className="checkout" />
    </>
  );
}
export { step };
`,
  );
  writeFileSync(
    path.join(shop, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        jsx: 'react-jsx',
        lib: ['ES2022', 'DOM'],
        types: [],
        skipLibCheck: false,
      },
      files: ['checkout.tsx'],
    }),
  );
  let output = '';
  try {
    execFileSync(process.execPath, [tsc, '-p', shop], { cwd: shop, encoding: 'utf8' });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe('');
}, 600_000);
