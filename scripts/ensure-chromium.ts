// Makes sure a Chromium for the end-to-end tests exists; never lets them skip silently.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const instruction = `Chromium is missing at ${path}: install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.`;

if (!existsSync(path)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (!isRoot || !hasApt || process.env.CHROMIUM_PATH) {
    console.error(instruction);
    process.exit(1);
  }
  console.log('Chromium is missing: installing it with apt-get (Debian package chromium)...');
  const apt = (args: string[]) =>
    execFileSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    apt(['install', '-y', 'chromium']);
  } catch {
    apt(['update']);
    apt(['install', '-y', 'chromium']);
  }
  if (!existsSync(path)) {
    console.error(instruction);
    process.exit(1);
  }
}
