// How fast a payer sees a consent (issue 8): the real server (`dist/server/main.mjs`, a fresh
// PGlite data dir, the demo consents it seeds) and a real Chromium at 390 px, a fresh profile for
// every load. Prints, medians of RUNS loads: the scripts and styles loaded before the first paint
// (bytes on the wire and decoded), the requests made before it, FCP and LCP from the browser's
// performance entries, and how many times the consent was fetched (one: the page's fetch takes
// the answer the HTML preloaded). Once as the machine loads it, once under a mobile profile
// (150 ms round trips, 1.6 Mbit/s down, 4× slower CPU: Lighthouse's mobile throttling, applied by
// DevTools). Then Lighthouse (mobile, its simulated throttling) on the demo consent asking for
// everything, RUNS times. Ratios against the budget and the targets come from this run.
//
// Run after a build: `npm run bench:page` (RUNS=3 by default; LIGHTHOUSE=0 skips Lighthouse).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';

const RUNS = Number(process.env.RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const KB = 1000;
/** scripts/check-page-budget.ts: the first paint's scripts and styles, gzip. */
const BUDGET_BYTES = 100 * KB;
/** The targets (Lighthouse mobile). */
const TARGET_LCP_MS = 2000;
const TARGET_TBT_MS = 150;

/** Lighthouse's mobile throttling (its "simulated" defaults), applied for real by DevTools. */
const MOBILE = { latencyMs: 150, downloadKbps: 1638.4, uploadKbps: 675, cpuSlowdown: 4 };

type TProfile = 'local' | 'mobile';

type TLoad = {
  fcp: number;
  lcp: number;
  /** The first paint's scripts and styles (criticalFiles), as this load fetched them. */
  criticalTransferred: number;
  criticalDecoded: number;
  criticalFiles: number;
  /** Requests started before the first paint, the document included. */
  requestsBeforePaint: number;
  /** Every script and style the load fetched, before the consent showed. */
  allScriptsTransferred: number;
  consentRequests: number;
  /** Scripts, styles or API calls asked for twice in one load: a preload the page did not take. */
  repeatedRequests: number;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

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

/** The real server on a free port and an empty data dir; resolves with its demo consent URLs. */
async function startServer(): Promise<{ urls: Map<string, string>; stop: () => void }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'oya-bench-page-'));
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.mjs'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  const urls = new Map<string, string>();
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      const demo = /^Demo consent, (.+): (http\S+)$/.exec(line);
      if (demo?.[1] && demo[2]) urls.set(demo[1], demo[2]);
      if (line.startsWith('Sign in:')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`the server exited with ${code} before it was ready`)),
    );
  });
  return { urls, stop };
}

/** One load in a fresh profile; resolves once the consent (or its auth prompt) shows. */
async function loadOnce(
  browser: Browser,
  url: string,
  profile: TProfile,
  critical: readonly string[],
): Promise<TLoad> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  let consentRequests = 0;
  let repeatedRequests = 0;
  const requested = new Set<string>();
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/consent/')) consentRequests += 1;
    if (!/^\/(assets|api)\//.test(pathname)) return;
    if (requested.has(request.url())) repeatedRequests += 1;
    requested.add(request.url());
  });
  if (profile === 'mobile') {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: MOBILE.latencyMs,
      downloadThroughput: (MOBILE.downloadKbps * 1024) / 8,
      uploadThroughput: (MOBILE.uploadKbps * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
  }
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  // The consent's first screen: its summary, or the auth prompt for one that needs a payer.
  await page
    .getByRole('heading', { name: 'They would like to:' })
    .or(page.getByRole('heading', { name: 'Authentication Required' }))
    .first()
    .waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const measured = await page.evaluate(async () => {
    const lcp = await new Promise<number>((resolve) => {
      new PerformanceObserver((list) => {
        resolve(list.getEntries().at(-1)?.startTime ?? NaN);
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      setTimeout(() => resolve(NaN), 2000);
    });
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    return {
      fcp,
      lcp,
      resources: resources.map((r) => ({
        name: r.name,
        type: r.initiatorType,
        startTime: r.startTime,
        responseEnd: r.responseEnd,
        transferSize: r.transferSize,
        decodedBodySize: r.decodedBodySize,
      })),
    };
  });
  await context.close();
  const isScriptOrStyle = (name: string) => /\.(js|css)$/.test(new URL(name).pathname);
  const criticalLoaded = measured.resources.filter((r) =>
    critical.includes(new URL(r.name).pathname.slice(1)),
  );
  return {
    fcp: measured.fcp,
    lcp: measured.lcp,
    criticalTransferred: criticalLoaded.reduce((sum, r) => sum + r.transferSize, 0),
    criticalDecoded: criticalLoaded.reduce((sum, r) => sum + r.decodedBodySize, 0),
    criticalFiles: criticalLoaded.length,
    requestsBeforePaint: 1 + measured.resources.filter((r) => r.startTime < measured.fcp).length,
    allScriptsTransferred: measured.resources
      .filter((r) => isScriptOrStyle(r.name))
      .reduce((sum, r) => sum + r.transferSize, 0),
    consentRequests,
    repeatedRequests,
  };
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;

/**
 * The first paint's scripts and styles, as scripts/check-page-budget.ts counts them: the entry
 * chunk of the build's manifest, the chunks it imports statically, and their CSS.
 */
function criticalFiles(): string[] {
  const manifestFile = path.resolve('dist/web/.vite/manifest.json');
  type TChunk = { file: string; isEntry?: boolean; imports?: string[]; css?: string[] };
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, TChunk>;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (entry) visit(entry);
  return [...files];
}

const gzipBytes = (files: readonly string[]) =>
  files.reduce(
    (sum, file) =>
      sum + gzipSync(readFileSync(path.resolve('dist/web', file)), { level: 9 }).length,
    0,
  );

async function benchPerformanceApi(
  browser: Browser,
  consents: [string, string][],
  critical: readonly string[],
) {
  const rows: { label: string; profile: TProfile; load: TLoad }[] = [];
  for (const profile of ['local', 'mobile'] as const) {
    for (const [label, url] of consents) {
      const loads: TLoad[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        loads.push(await loadOnce(browser, url, profile, critical));
      }
      const pick = (key: keyof TLoad) => median(loads.map((load) => load[key]));
      const load = Object.fromEntries(
        (Object.keys(loads[0] ?? {}) as (keyof TLoad)[]).map((key) => [key, pick(key)]),
      ) as TLoad;
      rows.push({ label, profile, load });
      console.log(
        [
          `${profile.padEnd(6)} ${label}`,
          `  first paint's ${load.criticalFiles} scripts/styles: ${kb(load.criticalTransferred)} on the wire, ${kb(load.criticalDecoded)} decoded; ${load.requestsBeforePaint} requests started before the first paint`,
          `  FCP ${ms(load.fcp)}, LCP ${ms(load.lcp)} (runs: ${loads.map((l) => Math.round(l.lcp)).join(', ')}); all scripts/styles to the consent: ${kb(load.allScriptsTransferred)} on the wire; consent fetched ${load.consentRequests}×, ${load.repeatedRequests} scripts or calls fetched twice`,
        ].join('\n'),
      );
    }
  }
  return rows;
}

type TLighthouse = {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
};

/** Lighthouse mobile (simulated throttling) with the system Chromium; null with the reason when it cannot run. */
async function benchLighthouse(url: string): Promise<TLighthouse[] | string> {
  let lighthouse: typeof import('lighthouse').default;
  let chromeLauncher: typeof import('chrome-launcher');
  try {
    lighthouse = (await import('lighthouse')).default;
    chromeLauncher = await import('chrome-launcher');
  } catch (error) {
    return `lighthouse is not installed (${(error as Error).message})`;
  }
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
        onlyCategories: ['performance', 'accessibility'],
      });
      const lhr = result?.lhr;
      if (!lhr) return 'Lighthouse returned no result';
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      results.push({
        performance: (lhr.categories.performance?.score ?? NaN) * 100,
        accessibility: (lhr.categories.accessibility?.score ?? NaN) * 100,
        fcp: audit('first-contentful-paint'),
        lcp: audit('largest-contentful-paint'),
        tbt: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
      });
    } finally {
      chrome.kill();
    }
  }
  return results;
}

async function main() {
  if (!existsSync('dist/web/.vite/manifest.json')) {
    throw new Error('The page is not built: npm run build');
  }
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const everything = [...server.urls].find(([label]) => label.startsWith('everything'));
    const immediate = [...server.urls].find(([label]) => label.startsWith('immediate'));
    if (!everything || !immediate) throw new Error('The server printed no demo consents');
    console.log(
      `bench:page: ${RUNS} loads each, medians; Chromium ${browser.version()}, 390 × 844`,
    );
    const critical = criticalFiles();
    const rows = await benchPerformanceApi(browser, [everything, immediate], critical);

    const built = gzipBytes(critical);
    const local = rows.find((row) => row.profile === 'local')?.load;
    const mobile = rows.find((row) => row.profile === 'mobile')?.load;
    console.log('Ratios, this run:');
    if (built !== null) {
      console.log(
        `  first paint's scripts/styles as built, gzip ÷ budget: ${kb(built)} ÷ ${kb(BUDGET_BYTES)} = ${(built / BUDGET_BYTES).toFixed(2)}`,
      );
    }
    if (local) {
      console.log(
        `  on the wire before first paint ÷ budget: ${kb(local.criticalTransferred)} ÷ ${kb(BUDGET_BYTES)} = ${(local.criticalTransferred / BUDGET_BYTES).toFixed(2)}`,
      );
      console.log(
        `  on the wire ÷ decoded (compression): ${(local.criticalTransferred / local.criticalDecoded).toFixed(2)}`,
      );
    }
    if (mobile) {
      console.log(
        `  mobile profile, LCP ÷ target: ${ms(mobile.lcp)} ÷ ${ms(TARGET_LCP_MS)} = ${(mobile.lcp / TARGET_LCP_MS).toFixed(2)}`,
      );
    }

    if (process.env.LIGHTHOUSE === '0') {
      console.log('Lighthouse: skipped (LIGHTHOUSE=0).');
      return;
    }
    const lighthouse = await benchLighthouse(everything[1]);
    if (typeof lighthouse === 'string') {
      console.log(`Lighthouse: not run: ${lighthouse}. The figures above are the browser's own.`);
      return;
    }
    const pick = (key: keyof TLighthouse) => median(lighthouse.map((result) => result[key]));
    console.log(
      `Lighthouse mobile, ${everything[0]}, medians of ${lighthouse.length}: performance ${pick('performance')}, accessibility ${pick('accessibility')}, FCP ${ms(pick('fcp'))}, LCP ${ms(pick('lcp'))}, TBT ${ms(pick('tbt'))}, CLS ${pick('cls').toFixed(3)}`,
    );
    console.log(
      `  LCP ÷ target: ${(pick('lcp') / TARGET_LCP_MS).toFixed(2)}; TBT ÷ target: ${(pick('tbt') / TARGET_TBT_MS).toFixed(2)}`,
    );
  } finally {
    await browser.close();
    server.stop();
  }
}

await main();
