// First-load weight of the page: gzip size of every built script and stylesheet, against a
// budget. Run after `npm run build`: `npm run bench`.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP_BYTES = 160 * 1024;
const assets = path.resolve('dist/web/assets');

const files = readdirSync(assets).filter((f) => /\.(js|css)$/.test(f));
let total = 0;
for (const file of files) {
  const size = gzipSync(readFileSync(path.join(assets, file))).length;
  total += size;
  console.log(`${file.padEnd(40)} ${(size / 1024).toFixed(1).padStart(7)} KiB gzip`);
}
console.log(
  `${'total'.padEnd(40)} ${(total / 1024).toFixed(1).padStart(7)} KiB gzip (budget ${BUDGET_GZIP_BYTES / 1024} KiB)`,
);
if (total > BUDGET_GZIP_BYTES) {
  console.error('Over budget.');
  process.exit(1);
}
