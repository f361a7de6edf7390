import { spawn } from 'node:child_process';
import type { Page } from '@playwright/test';
import { expectNoViolations } from './axe';

// What the dashboard's browser tests share (docs/dashboard.md): the npm scripts run against a
// built server's data directory (client:create prints the owner's invitation), and each screen
// checked with axe and shot at 390 px and 1280 px.

/** `npm run <script> -- <args>` on the data directory `dataDir`: its exit code and output. */
export function npmRun(dataDir: string, script: string, ...args: string[]) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      env: { ...process.env, DATA_DIR: dataDir },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The value a script printed as `key: value`. */
export const printed = (out: string, key: string) => {
  const value = new RegExp(`^${key}:\\s+(\\S+)$`, 'm').exec(out)?.[1];
  if (!value) throw new Error(`No ${key} in:\n${out}`);
  return value;
};

/** axe on the screen as it stands, and its shots at both widths into `dir`. */
export async function lookAtScreen(page: Page, dir: string, name: string) {
  await expectNoViolations(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}
