// Makes sure the browser tests' Chromium exists (tests/e2e/e2e-env.ts CHROMIUM); never lets them
// skip silently.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM } from '../tests/e2e/e2e-env';

const { path, debianPackage } = CHROMIUM;
const instruction = `Chromium is missing at ${path}: install it (Debian: apt-get install -y ${debianPackage}) or set CHROMIUM_PATH.`;

if (!existsSync(path)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (!isRoot || !hasApt || process.env.CHROMIUM_PATH) {
    console.error(instruction);
    process.exit(1);
  }
  console.log(
    `Chromium is missing: installing it with apt-get (Debian package ${debianPackage})...`,
  );
  const apt = (args: string[]) =>
    execFileSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    apt(['install', '-y', debianPackage]);
  } catch {
    apt(['update']);
    apt(['install', '-y', debianPackage]);
  }
  if (!existsSync(path)) {
    console.error(instruction);
    process.exit(1);
  }
}
