// How fast a payer sees and can use a consent (issue 31): the real server (`dist/server/main.mjs`,
// a fresh PGlite data dir, the demo consents it seeds) and the system Chromium at 390 px.
//
// For every demo consent the server prints, it measures:
// - the scripts and styles the browser fetched until the consent was visible, and until its
//   controls answered (React has attached its handlers to the page's buttons): gzip bytes of the
//   built files (what the budget counts) and bytes on the wire (what compression served);
// - the time to visible and to interactive controls, under Lighthouse's mobile throttling applied
//   for real by DevTools (150 ms round trips, 1.6 Mbit/s down, 4× slower CPU), medians of RUNS
//   loads, each in a fresh profile;
// - Lighthouse mobile (its simulated throttling), medians of RUNS: performance, FCP, LCP, TBT, CLS.
//
// `BEFORE=<dir>` measures a second build in the same run (a checkout of an earlier commit with its
// own `npm run build`), and prints both side by side:
//
//   git worktree add /tmp/before <commit> && cp -a node_modules /tmp/before/ \
//     && (cd /tmp/before && npm run build)
//   BEFORE=/tmp/before npm run bench:page
//
// RUNS=3 by default; LIGHTHOUSE=0 skips Lighthouse.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';

const RUNS = Number(process.env.RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const KB = 1000;
/** The budget of what a visitor needs until the consent is visible and usable, gzip. */
const BUDGET_BYTES = 100 * KB;
/** Issue 31's targets (Lighthouse mobile). */
const TARGETS = { lcp: 1200, tbt: 50, cls: 0.01, performance: 100 };
/** Issue 43's: the consent painted once, its largest paint within this of its first. */
const PAINT_ONCE_MS = 100;

/** Lighthouse's mobile throttling (its "simulated" defaults), applied for real by DevTools. */
const MOBILE = { latencyMs: 150, downloadKbps: 1638.4, uploadKbps: 675, cpuSlowdown: 4 };

/**
 * The consent's first screen, whichever it is: the summary of what the merchant asks ('They would
 * like to:'), or, for a payment-only consent, the Immediate Payment step with its methods.
 */
const FIRST_SCREEN = /^(They would like to:|Immediate Payment)$/;

type TBuild = { label: string; root: string };

type TLoad = {
  visibleMs: number;
  interactiveMs: number;
  /** The browser's own first contentful paint and the last largest paint it reported by the time
   * the page's controls answered and the frame after: the screen painted again once the scripts
   * took over would move the second. */
  fcpMs: number;
  lcpMs: number;
  /** Scripts and styles fetched until the consent was visible: gzip as built, and on the wire. */
  visibleGzip: number;
  visibleWire: number;
  /** … and until its controls answered. */
  usableGzip: number;
  usableWire: number;
  files: number;
};

type TLighthouse = { performance: number; fcp: number; lcp: number; tbt: number; cls: number };

type TRow = { demo: string; load: TLoad; lighthouse: TLighthouse | null };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

function medians<T extends Record<string, number>>(runs: T[]): T {
  const keys = Object.keys(runs[0] ?? {}) as (keyof T)[];
  return Object.fromEntries(
    keys.map((key) => [key, median(runs.map((run) => run[key] as number))]),
  ) as T;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A build's server on a free port and an empty data dir; resolves with its demo consent URLs. */
async function startServer(build: TBuild) {
  const bundle = path.join(build.root, 'dist/server/main.mjs');
  if (!existsSync(path.join(build.root, 'dist/web/.vite/manifest.json')) || !existsSync(bundle)) {
    throw new Error(`${build.root} is not built: npm run build there`);
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'oya-bench-page-'));
  const child: ChildProcess = spawn(process.execPath, [bundle], {
    cwd: build.root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  const demos: [string, string][] = [];
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      const demo = /^Demo consent, (.+): (http\S+)$/.exec(line);
      if (demo?.[1] && demo[2]) demos.push([demo[1], demo[2]]);
      if (line.startsWith('Sign in:')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`the server exited with ${code} before it was ready`)),
    );
  });
  if (demos.length === 0) throw new Error(`${build.label}: the server printed no demo consents`);
  return { demos, stop };
}

/**
 * Runs in the page before its own scripts: notes (performance.now) when the first screen is
 * visible — a heading of it is in the document, whether the server's HTML or a script put it
 * there, and the page has painted (first contentful paint: its stylesheet is in) — and when React
 * has attached its handlers to a button of the page (`__reactProps$…` on the element, set when it
 * renders or hydrates it): from then on a click is handled. Plain script text, since a function
 * handed to the page would carry the helpers tsx's transform adds to it.
 */
const WATCH_FIRST_SCREEN = `(() => {
  const firstScreen = new RegExp(${JSON.stringify(FIRST_SCREEN.source)});
  const marks = { visibleMs: NaN, interactiveMs: NaN, fcpMs: NaN, lcpMs: NaN };
  let headingMs = NaN;
  let paintMs = NaN;
  window.firstScreenMarks = marks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'first-contentful-paint') paintMs = marks.fcpMs = entry.startTime;
    }
    look();
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) marks.lcpMs = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const look = () => {
    if (Number.isNaN(headingMs)) {
      const headings = [...document.querySelectorAll('h1, h2')];
      if (headings.some((h) => firstScreen.test((h.textContent || '').trim()))) {
        headingMs = performance.now();
      }
    }
    if (Number.isNaN(marks.visibleMs) && !Number.isNaN(headingMs) && !Number.isNaN(paintMs)) {
      marks.visibleMs = Math.max(headingMs, paintMs);
    }
    if (!Number.isNaN(marks.visibleMs) && Number.isNaN(marks.interactiveMs)) {
      const buttons = [...document.querySelectorAll('main button')];
      if (buttons.some((b) => Object.keys(b).some((k) => k.startsWith('__reactProps$')))) {
        marks.interactiveMs = performance.now();
      }
    }
    if (Number.isNaN(marks.interactiveMs)) requestAnimationFrame(look);
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true });
  requestAnimationFrame(look);
})();`;

async function firstScreenTimes(page: Page) {
  await page.waitForFunction(
    () =>
      !Number.isNaN(
        (window as unknown as { firstScreenMarks: { interactiveMs: number } }).firstScreenMarks
          .interactiveMs,
      ),
    undefined,
    { timeout: 60_000 },
  );
  // Two frames on, what hydration changed has been painted, and reported if it was larger.
  return page.evaluate(
    () =>
      new Promise<{ visibleMs: number; interactiveMs: number; fcpMs: number; lcpMs: number }>(
        (resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              setTimeout(() =>
                resolve(
                  (
                    window as unknown as {
                      firstScreenMarks: {
                        visibleMs: number;
                        interactiveMs: number;
                        fcpMs: number;
                        lcpMs: number;
                      };
                    }
                  ).firstScreenMarks,
                ),
              ),
            ),
          ),
      ),
  );
}

/** Gzip size of a built file (level 9, as the budget counts), by its URL path under dist/web. */
function builtGzip(build: TBuild, pathname: string): number {
  const file = path.join(build.root, 'dist/web', pathname);
  return existsSync(file) ? gzipSync(readFileSync(file), { level: 9 }).length : 0;
}

async function loadOnce(browser: Browser, build: TBuild, url: string): Promise<TLoad> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: MOBILE.latencyMs,
    downloadThroughput: (MOBILE.downloadKbps * 1024) / 8,
    uploadThroughput: (MOBILE.uploadKbps * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
  await page.addInitScript(WATCH_FIRST_SCREEN);
  await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
  const times = await firstScreenTimes(page);
  const resources = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
      pathname: new URL(r.name).pathname,
      responseEnd: r.responseEnd,
      transferSize: r.transferSize,
    })),
  );
  await context.close();
  const scripts = resources.filter((r) => /\.(js|css)$/.test(r.pathname));
  const until = (ms: number) => scripts.filter((r) => r.responseEnd <= ms);
  const gzip = (list: typeof scripts) =>
    list.reduce((sum, r) => sum + builtGzip(build, r.pathname), 0);
  const wire = (list: typeof scripts) => list.reduce((sum, r) => sum + r.transferSize, 0);
  const visible = until(times.visibleMs);
  const usable = until(times.interactiveMs);
  return {
    ...times,
    visibleGzip: gzip(visible),
    visibleWire: wire(visible),
    usableGzip: gzip(usable),
    usableWire: wire(usable),
    files: usable.length,
  };
}

/** Lighthouse mobile (simulated throttling) with the system Chromium, RUNS times, medians. */
async function lighthouseOf(url: string): Promise<TLighthouse> {
  const lighthouse = (await import('lighthouse')).default;
  const chromeLauncher = await import('chrome-launcher');
  const results: TLighthouse[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    });
    try {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
      });
      const lhr = result?.lhr;
      if (!lhr) throw new Error('Lighthouse returned no result');
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      results.push({
        performance: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
        fcp: audit('first-contentful-paint'),
        lcp: audit('largest-contentful-paint'),
        tbt: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
      });
    } finally {
      chrome.kill();
    }
  }
  return medians(results);
}

async function benchBuild(browser: Browser, build: TBuild): Promise<TRow[]> {
  const server = await startServer(build);
  try {
    const rows: TRow[] = [];
    for (const [demo, url] of server.demos) {
      const loads: TLoad[] = [];
      for (let run = 0; run < RUNS; run += 1) loads.push(await loadOnce(browser, build, url));
      const lighthouse = process.env.LIGHTHOUSE === '0' ? null : await lighthouseOf(url);
      rows.push({ demo, load: medians(loads), lighthouse });
      console.error(`  measured ${build.label}: ${demo}`);
    }
    return rows;
  } finally {
    server.stop();
  }
}

const kb = (bytes: number) => (bytes / KB).toFixed(1);
const ms = (value: number) => String(Math.round(value));

function table(build: TBuild, rows: TRow[]) {
  const lines = [
    `### ${build.label}`,
    '',
    '| demo consent | JS+CSS to visible, gzip / wire (KB) | JS+CSS to usable, gzip / wire (KB) | visible (ms) | interactive (ms) | first → largest paint, throttled (ms) | Lighthouse perf | FCP (ms) | LCP (ms) | LCP − FCP (ms) | TBT (ms) | CLS |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows
      .map(({ demo, load, lighthouse: lh }) =>
        [
          demo,
          `${kb(load.visibleGzip)} / ${kb(load.visibleWire)}`,
          `${kb(load.usableGzip)} / ${kb(load.usableWire)}`,
          ms(load.visibleMs),
          ms(load.interactiveMs),
          `${ms(load.fcpMs)} → ${ms(load.lcpMs)}`,
          lh ? String(lh.performance) : '–',
          lh ? ms(lh.fcp) : '–',
          lh ? ms(lh.lcp) : '–',
          lh ? ms(lh.lcp - lh.fcp) : '–',
          lh ? ms(lh.tbt) : '–',
          lh ? lh.cls.toFixed(3) : '–',
        ].join(' | '),
      )
      .map((line) => `| ${line} |`),
  ];
  console.log(lines.join('\n'));
  const worst = (pick: (row: TRow) => number) => Math.max(...rows.map(pick));
  console.log(
    `\nRatios, ${build.label} (worst demo ÷ target): JS+CSS to usable ${(worst((r) => r.load.usableGzip) / BUDGET_BYTES).toFixed(2)}, largest paint after the first, throttled ${(worst((r) => r.load.lcpMs - r.load.fcpMs) / PAINT_ONCE_MS).toFixed(2)} (÷ ${PAINT_ONCE_MS} ms)` +
      (rows.every((r) => r.lighthouse)
        ? `, LCP ${(worst((r) => r.lighthouse?.lcp ?? NaN) / TARGETS.lcp).toFixed(2)}, LCP − FCP ${(worst((r) => (r.lighthouse?.lcp ?? NaN) - (r.lighthouse?.fcp ?? NaN)) / PAINT_ONCE_MS).toFixed(2)} (÷ ${PAINT_ONCE_MS} ms), TBT ${(worst((r) => r.lighthouse?.tbt ?? NaN) / TARGETS.tbt).toFixed(2)}, CLS ${worst((r) => r.lighthouse?.cls ?? NaN).toFixed(3)} (target ≤ ${TARGETS.cls}), lowest performance ${Math.min(...rows.map((r) => r.lighthouse?.performance ?? NaN))} (target ${TARGETS.performance})`
        : '') +
      '\n',
  );
}

async function main() {
  const builds: TBuild[] = [
    ...(process.env.BEFORE ? [{ label: 'before', root: path.resolve(process.env.BEFORE) }] : []),
    { label: process.env.BEFORE ? 'after (this build)' : 'this build', root: process.cwd() },
  ];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    console.log(
      `bench:page: Chromium ${browser.version()}, 390 × 844; loads under DevTools mobile throttling (${MOBILE.latencyMs} ms, ${MOBILE.downloadKbps} kbit/s, CPU ÷${MOBILE.cpuSlowdown}), Lighthouse mobile; medians of ${RUNS}\n`,
    );
    for (const build of builds) table(build, await benchBuild(browser, build));
  } finally {
    await browser.close();
  }
}

await main();
