// The slowest test files of an `npm test` run, printed at its end (scripts/test.sh): each lane
// writes its JSON report into one folder (vitest's `json` reporter, Playwright's), and this reads
// them all, so the next cut of CI time starts from where the time went.
//
//   npx tsx scripts/slowest-files.ts <folder> [count]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

type TVitestReport = { testResults: { name: string; startTime: number; endTime: number }[] };
type TPlaywrightSuite = {
  file: string;
  specs?: { tests: { projectName: string; results: { duration: number }[] }[] }[];
  suites?: TPlaywrightSuite[];
};
type TPlaywrightReport = { suites: TPlaywrightSuite[] };

/** Seconds per file of a vitest report: from the file's start to its end. */
function vitestFiles(report: TVitestReport): Map<string, number> {
  const files = new Map<string, number>();
  for (const { name, startTime, endTime } of report.testResults) {
    files.set(path.relative(process.cwd(), name), (endTime - startTime) / 1_000);
  }
  return files;
}

/**
 * Seconds per file of a Playwright report: its tests' durations summed, every project (the
 * workers run them side by side, so this is the file's cost, not its wall time).
 */
function playwrightFiles(report: TPlaywrightReport): Map<string, number> {
  const files = new Map<string, number>();
  const walk = (suite: TPlaywrightSuite) => {
    const file = path.join('tests/e2e', suite.file);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        for (const result of test.results) {
          files.set(file, (files.get(file) ?? 0) + result.duration / 1_000);
        }
      }
    }
    for (const inner of suite.suites ?? []) walk(inner);
  };
  for (const suite of report.suites) walk(suite);
  return files;
}

const [folder, count = '10'] = process.argv.slice(2);
if (!folder) {
  console.error('Usage: tsx scripts/slowest-files.ts <folder> [count]');
  process.exit(2);
}
const rows: { file: string; run: string; seconds: number }[] = [];
for (const name of readdirSync(folder).filter((n) => n.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as
    TVitestReport | TPlaywrightReport;
  const files = 'testResults' in report ? vitestFiles(report) : playwrightFiles(report);
  for (const [file, seconds] of files)
    rows.push({ file, run: name.replace(/\.json$/, ''), seconds });
}
rows.sort((a, b) => b.seconds - a.seconds);
console.log(`[npm test] the ${count} slowest test files:`);
for (const { file, run, seconds } of rows.slice(0, Number(count))) {
  console.log(`[npm test]   ${seconds.toFixed(0).padStart(5)} s  ${file} (${run})`);
}
