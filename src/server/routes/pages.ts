import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { standalonePageTitle } from '../../domain/consent-header';
import { ERROR_CATALOGUE } from '../../domain/errors';
import { parsePageParams, type TPageParams } from '../../domain/page-params';
import { DEBIT_NOTICE_PATH, PAYER_CONSENTS_PATH } from '../../domain/payer-pages';
import type { TConsentReadResponse } from '../../domain/schemas/consent';
import { firstScreenParts } from '../../web/app/first-screen-parts';
import { pageAnswersElement, type TPageAnswers } from '../../web/app/page-answers';
import type { renderPageHtml } from '../../web/server-render';
import type { TRouteContext } from '../context';
import { isLive } from '../providers/registry';
import { newNonce, setPageHeaders } from '../response-headers';
import { AppError } from '../app-error';
import type { TConsentReads } from '../services/consents/consent-reads';
import { embedOriginsOfConsent } from '../services/merchants/embed-origins';
import { consentReadFor } from './consents';
import { publicConfigAnswer } from './public-config';
import { PAGE_SETTLED_ATTRIBUTE } from '../../web/page-settled';

type TPageOptions = Pick<
  TRouteContext,
  'db' | 'config' | 'clock' | 'sandbox' | 'capabilities' | 'providers'
> & {
  webDir: string;
  reads: TConsentReads;
};

/** A file of a released embed script: under sdk/v<major>.<minor>.<patch>/. */
const RELEASED_SDK = /[\\/]sdk[\\/]v\d+\.\d+\.\d+[\\/]/;
/** The embed script's moving addresses (/sdk/v1/, the manifest): a new release reaches them soon. */
export const SDK_ALIAS_CACHE = 'public, max-age=300';

/** The server-drawn first screen gives up after this long, and the page is drawn by its scripts. */
const RENDER_TIMEOUT_MS = 2_000;

/** What each answer fills in of the built page. */
type TPageParts = {
  nonce: string;
  /** Extra head tags: preloads. */
  head: string;
  /** The tab's title, HTML-escaped. */
  title: string;
  /** Attributes of <body>, each with its leading space. */
  body: string;
  /** The content of <div id="root">. */
  root: string;
  /** After it: the answers the content was drawn from. */
  afterRoot: string;
};

const SLOT = '\u0000';
const slot = (name: keyof TPageParts) => `${SLOT}${name}${SLOT}`;

/**
 * The built page as a template: a nonce on every script and module preload, and on the meta tag
 * Vite's preload helper reads it from for the preloads it adds later; slots for the head's extra
 * tags, the title, body's attributes and the root's content. The file is read once; each answer
 * fills in its own parts.
 */
function pageTemplate(html: string): { fill(parts: TPageParts): string; title: string } {
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  const parts = html
    .replace(/<head>/, `<head>\n    <meta property="csp-nonce" nonce="${slot('nonce')}">`)
    .replace('</head>', `${slot('head')}\n  </head>`)
    .replace(/<title>[^<]*<\/title>/, `<title>${slot('title')}</title>`)
    .replace(/<body>/, `<body${slot('body')}>`)
    .replace('<div id="root"></div>', `<div id="root">${slot('root')}</div>${slot('afterRoot')}`)
    .replace(/<script\b/g, `<script nonce="${slot('nonce')}"`)
    .replace(/<link\b(?=[^>]*\brel=["']?modulepreload\b)/g, `<link nonce="${slot('nonce')}"`)
    .split(SLOT);
  // Odd places hold slot names.
  return {
    title,
    fill: (values) =>
      parts.map((part, at) => (at % 2 === 1 ? values[part as keyof TPageParts] : part)).join(''),
  };
}

/** The built page's own script and the module preloads Vite named for it. */
function scriptsOf(html: string): { entry: string; preloads: string[] } {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html)?.[1];
  if (!entry) throw new Error('The built page names no entry script');
  const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)]
    .map((match) => match[1])
    .filter((href): href is string => href !== undefined);
  return { entry, preloads };
}

/** The built page without its script and module preloads: the drawn page loads them itself. */
function withoutScripts(html: string): string {
  return html
    .replace(/\n?\s*<script type="module" crossorigin src="[^"]+"><\/script>/, '')
    .replace(/\n?\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, '');
}

/**
 * Holds a click on a control of the drawn screen until the page's scripts have taken it over
 * (React marks each element it has with a `__reactProps$…` key) and the page shows the screen
 * for the payer's stored session (PAGE_SETTLED_ATTRIBUTE), then gives it to the control: a payer
 * who taps 'Pay by Transfer' while the scripts are still on their way is answered, not ignored.
 * A signed-in payer's screen is drawn again once their session is read (the server drew it
 * without one), and its code may come later still on a slow phone: a click meanwhile goes to the
 * control drawn in its place, the one control of the same kind and name, once there is exactly
 * one. A later click replaces one held. Once the page's scripts run (React's mark on #root), the
 * tap waits for the screen however slow its code, a minute at most (the page says it is settled
 * even where the session's code did not come). A button does nothing without the scripts, so its
 * tap waits a minute for them too, however late they start on a loaded phone; a link or a summary
 * acts without them, so with none running 10 s after the tap it is given to the control as it is
 * (the link is followed). A page given a tap that way is taken as settled from then on: one tap
 * waited, not every one.
 */
const HOLD_EARLY_CLICKS = `const takenOver=(el)=>Object.keys(el).some((k)=>k.startsWith('__reactProps$'));
const controls='button,a[href],summary,[role="button"]';
const nameOf=(el)=>el.tagName+' '+(el.getAttribute('aria-label')||el.textContent||'').replace(/\\s+/g,' ').trim();
const inPlaceOf=(control,name)=>{if(control.isConnected&&nameOf(control)===name)return control;
const same=[...(document.getElementById('root')?.querySelectorAll(controls)??[])].filter((el)=>nameOf(el)===name);
return same.length===1?same[0]:null};
const running=()=>{const root=document.getElementById('root');return !!root&&Object.keys(root).some((k)=>k.startsWith('__reactContainer$'))};
let held=null;let replaying=false;
document.addEventListener('click',(event)=>{
if(replaying)return;
const control=event.target instanceof Element?event.target.closest(controls):null;
const settled=()=>document.documentElement.hasAttribute('${PAGE_SETTLED_ATTRIBUTE}');
if(!control||!document.getElementById('root')?.contains(control)||(takenOver(control)&&settled()))return;
event.preventDefault();event.stopImmediatePropagation();
const mine={};held=mine;const name=nameOf(control);const since=performance.now();const acts=control.matches('a[href],summary');
const give=()=>{if(held!==mine)return;const target=inPlaceOf(control,name);
const ready=settled()&&target&&takenOver(target);
if(!ready&&performance.now()-since<(running()||!acts?60000:10000)){requestAnimationFrame(give);return}
if(!settled())document.documentElement.setAttribute('${PAGE_SETTLED_ATTRIBUTE}','');
held=null;if(!target)return;replaying=true;try{target.click()}finally{replaying=false}};
requestAnimationFrame(give);},true);`;

/**
 * The drawn page's own script (under the answer's nonce): it holds early clicks
 * (HOLD_EARLY_CLICKS), and asks for the page's scripts once the screen is painted: when the
 * browser reports its first contentful paint (a `paint` entry), so the screen is painted once,
 * from the HTML and its stylesheet alone, before any script is even asked for. Before, it asked a
 * frame after the first (or half a second on): on a slow phone the scripts could start before
 * the paint came, and the paint then waited on them (Lighthouse's "element render delay"). A page
 * not shown paints nothing, and a browser without paint timing reports nothing: the first asks
 * half a second on, the second after a frame, as before; two seconds on, a page asks whatever
 * happened. Before, the scripts would share the network with what paints the screen (its
 * stylesheet, its images), which is all a visitor waits for. The modules the entry and the
 * screen's parts import are named first, so they load side by side, not one after another.
 */
function scriptsAfterPaint(nonce: string, entry: string, preloads: readonly string[]): string {
  // Once each: the parts' lists name the chunks they share with the route.
  const files = [...new Set(preloads)];
  const load = `let started=false;const load=()=>{if(started)return;started=true;for(const href of ${JSON.stringify(files)}){const link=document.createElement('link');link.rel='modulepreload';link.crossOrigin='';link.nonce=${JSON.stringify(nonce)};link.href=href;document.head.append(link)}import(${JSON.stringify(entry)})};const painted=typeof PerformanceObserver==='function'&&(PerformanceObserver.supportedEntryTypes||[]).includes('paint');if(document.visibilityState!=='visible')setTimeout(load,500);else if(!painted)requestAnimationFrame(()=>setTimeout(load));else{const seen=()=>performance.getEntriesByName('first-contentful-paint').length>0;if(seen())load();else new PerformanceObserver((list,observer)=>{if(seen()){observer.disconnect();load()}}).observe({type:'paint'})}setTimeout(load,2000);`;
  return `<script nonce="${nonce}" type="module">${HOLD_EARLY_CLICKS}\n${load}</script>`;
}

/** HTML text: a merchant's name in the title. */
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The build's scripts of the first screens by name (vite.config.ts FIRST_SCREEN_MODULES). */
type TFirstScreenChunks = Partial<
  Record<
    'route' | 'summary' | 'auth-prompt' | 'immediate-payment' | 'side-panel' | 'settled',
    string[]
  >
>;

function firstScreenChunks(webDir: string): TFirstScreenChunks {
  const listFile = path.join(webDir, '.vite/first-screen-chunks.json');
  if (!existsSync(listFile)) return {};
  return JSON.parse(readFileSync(listFile, 'utf8')) as TFirstScreenChunks;
}

/**
 * Module preloads of these files at low priority (they download behind the page's own script),
 * but those the built page names already.
 */
const modulePreloads = (built: string, files: readonly string[], nonce: string) =>
  [...new Set(files)]
    .filter((file) => !built.includes(`href="/${file}"`))
    .map(
      (file) =>
        `\n    <link nonce="${nonce}" rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`,
    )
    .join('');

/**
 * Whether a browser offers Web Bluetooth, guessed from its User-Agent: Chromium's browsers do,
 * but not on iOS (whose browsers are WebKit and name themselves otherwise), nor Firefox or
 * Safari. The page hydrates the methods drawn with the guess, then asks the browser.
 */
export function offersWebBluetooth(userAgent: string | undefined): boolean {
  return /Chrome\/\d/.test(userAgent ?? '') && !/\b(iPhone|iPad|iPod)\b/.test(userAgent ?? '');
}

/** Ids as we issue them (services/merchants/embed-origins.ts): they read the same encoded or not. */
const ISSUED_ID = /^[\w-]{1,100}$/;

const preloadFetch = (href: string) =>
  `\n    <link rel="preload" as="fetch" crossorigin href="${href}">`;

/**
 * Asks the browser for the calls the consent page makes first while it still parses the page, so
 * their answers are there when the page's script asks (one request each, not two): the consent,
 * and the public config (the auth prompt's product name). URL, mode and credentials must be the
 * page's own (src/web/api/consent-calls.ts consentReadPath, src/web/api/auth.ts; fetch's defaults:
 * cors, same-origin) or the browser fetches twice. The consent only for one clientId and ids as
 * we issue them, whose URL is the same on both sides. Only for a page the server did not draw:
 * a drawn one carries the answers.
 */
function consentPagePreloads(consentId: string, clientId: string | null): string {
  const consent =
    clientId !== null && ISSUED_ID.test(consentId) && ISSUED_ID.test(clientId)
      ? preloadFetch(
          `/api/consent/${encodeURIComponent(consentId)}?clientId=${encodeURIComponent(clientId)}`,
        )
      : '';
  return consent + preloadFetch('/api/public-config');
}

/** The built page as the routes fill it in: a template from pageTemplate. */
type TPageTemplate = ReturnType<typeof pageTemplate>;

/** What the page routes send from: the built page, read once, and what draws a first screen. */
type TPageServer = Pick<TPageOptions, 'db' | 'reads' | 'clock'> & {
  /** The built index.html as it is. */
  built: string;
  /** The built page, for the page its scripts draw. */
  page: TPageTemplate;
  /** The built page without its scripts, for a first screen drawn here. */
  drawnPage: TPageTemplate;
  entryScripts: ReturnType<typeof scriptsOf>;
  chunks: TFirstScreenChunks;
  publicConfig: ReturnType<typeof publicConfigAnswer>;
  renderPageHtml: typeof renderPageHtml;
};

/** Reads the built page once and loads the code that draws its first screen. */
async function loadPageServer(options: TPageOptions): Promise<TPageServer> {
  const { db, webDir, reads, clock } = options;
  // The page's components, only where the page is served (under tsx, with
  // scripts/style-imports.ts: they import their stylesheets).
  const { renderPageHtml, loadPageCode } = await import('../../web/server-render');
  // Drawing a first screen waits on no code: a render's time limit counts only the drawing.
  await loadPageCode();
  const indexFile = path.join(webDir, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(`The page is not built: ${indexFile} is missing. Run: npm run build`);
  }
  const built = readFileSync(indexFile, 'utf8');
  const page = pageTemplate(built);
  const drawnPage = pageTemplate(withoutScripts(built));
  const entryScripts = scriptsOf(built);
  const chunks = firstScreenChunks(webDir);
  const publicConfig = publicConfigAnswer(options);
  return {
    db,
    reads,
    clock,
    built,
    page,
    drawnPage,
    entryScripts,
    chunks,
    publicConfig,
    renderPageHtml,
  };
}

/** The build's files, compressed and cached as each kind wants (index.html: the routes'). */
async function registerBuildFiles(app: FastifyInstance, webDir: string) {
  // Brotli or gzip, as the browser accepts. The build's files come compressed already
  // (vite.config.ts writes .br and .gz beside each): sent as they are, never compressed again;
  // page answers are compressed here when they pass the plugin's 1 KB threshold.
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'] });
  await app.register(fastifyStatic, {
    root: webDir,
    prefix: '/',
    index: false,
    wildcard: false,
    // index.html only through the page routes, which give it its CSP; source maps stay on the
    // server for error reporting, never public.
    // .br and .gz are served for their file (preCompressed), not at their own address.
    globIgnore: ['index.html', '**/*.map', '**/*.br', '**/*.gz'],
    preCompressed: true,
    maxAge: '1h',
    setHeaders: (reply, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      }
      // The embed script, loaded by merchants' pages with crossorigin="anonymous": readable
      // from any origin. At its version's address (/sdk/v1.2.3/) it never changes, so pages pin
      // it by its integrity hash and browsers keep it; its major's (/sdk/v1/) follows the newest
      // release, and the manifest the releases, so browsers ask again soon (docs/sdk.md).
      if (filePath.includes(`${path.sep}sdk${path.sep}`)) {
        reply.header(
          'Cache-Control',
          RELEASED_SDK.test(filePath) ? 'public, max-age=31536000, immutable' : SDK_ALIAS_CACHE,
        );
        reply.header('Access-Control-Allow-Origin', '*');
        reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
      }
    },
  });
}

/** The built page as its scripts draw it, framed only by `frameAncestors`. */
function sendPage(
  { page }: TPageServer,
  reply: FastifyReply,
  frameAncestors: string,
  parts: Partial<TPageParts> = {},
) {
  const nonce = newNonce();
  return setPageHeaders(reply, { nonce, frameAncestors }).send(
    page.fill({
      head: '',
      title: page.title,
      body: '',
      root: '',
      afterRoot: '',
      ...parts,
      nonce,
    }),
  );
}

/**
 * The answers the consent page's first screen is drawn from: the public config, and the consent
 * read as the page would read it (or its refusal). Null where the page's own read would not be
 * this one (a clientId given twice, ids we never issue): the page then reads for itself.
 */
async function answersFor(
  { publicConfig, reads, clock }: TPageServer,
  request: FastifyRequest,
  consentId: string,
  clientId: string | null,
): Promise<Omit<TPageAnswers, 'parts'> | null> {
  const webBluetooth = offersWebBluetooth(request.headers['user-agent']);
  if (clientId === null) return { publicConfig, webBluetooth };
  if (!ISSUED_ID.test(consentId) || !ISSUED_ID.test(clientId)) return null;
  try {
    const body = await consentReadFor(reads, consentId, clientId, clock.now());
    const answer = JSON.parse(body) as TConsentReadResponse;
    return { publicConfig, webBluetooth, consent: { consentId, clientId, answer } };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const failure = {
      status: ERROR_CATALOGUE[error.code].status,
      code: error.code,
      message: error.message,
    };
    return { publicConfig, webBluetooth, consent: { consentId, clientId, failure } };
  }
}

/**
 * The consent page with its first screen drawn (src/web/server-render.tsx) and the answers it
 * was drawn from; the scripts of that screen preloaded. Where it cannot be drawn, the page as
 * its scripts draw it, with the calls they make first preloaded.
 */
async function sendConsentPage(
  server: TPageServer,
  request: FastifyRequest,
  reply: FastifyReply,
  frameAncestors: string,
  consentId: string,
  clientId: string | null,
  { draw = true } = {},
) {
  const { built, chunks, page, drawnPage } = server;
  const nonce = newNonce();
  const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  const params = parsePageParams(search);
  // A read that failed (the database, say) leaves the page to read for itself, as before.
  const read = draw
    ? await answersFor(server, request, consentId, clientId).catch((error: unknown) => {
        request.log.warn({ err: error }, 'The consent page could not read its consent');
        return null;
      })
    : null;
  const answers = read && { ...read, parts: firstScreenParts(read, search) };
  const drawn =
    answers && (await drawFirstScreen(server, request, { nonce, search, params, answers }));
  const parts: TPageParts = drawn ?? {
    nonce,
    head:
      consentPagePreloads(consentId, clientId) +
      modulePreloads(built, [...(chunks.route ?? []), ...(chunks['auth-prompt'] ?? [])], nonce),
    title: page.title,
    body: '',
    root: '',
    afterRoot: '',
  };
  return setPageHeaders(reply, { nonce, frameAncestors }).send(
    drawn ? drawnPage.fill(parts) : page.fill(parts),
  );
}

/** The consent page's first screen drawn here, or null where it could not be. */
async function drawFirstScreen(
  { renderPageHtml, page, chunks, entryScripts }: TPageServer,
  request: FastifyRequest,
  {
    nonce,
    search,
    params,
    answers,
  }: { nonce: string; search: string; params: TPageParams; answers: TPageAnswers },
): Promise<TPageParts | null> {
  const path = request.url.split('?')[0] ?? '/';
  let root: string;
  try {
    root = await renderPageHtml({
      path,
      search,
      href: `${request.protocol}://${request.host}${request.url}`,
      nonce,
      answers,
      timeoutMs: RENDER_TIMEOUT_MS,
    });
  } catch (error) {
    request.log.warn({ err: error }, 'The consent page could not be drawn on the server');
    return null;
  }
  // The code of the parts drawn, but the side panel's: only a wide window shows it, and the
  // page loads it there.
  const { parts } = answers;
  const screenChunks = [
    ...(parts.includes('auth-prompt') ? (chunks['auth-prompt'] ?? []) : []),
    ...(parts.includes('immediate-payment') ? (chunks['immediate-payment'] ?? []) : []),
    ...(parts.includes('settled') ? (chunks.settled ?? []) : []),
    ...(parts.includes('summary') ? (chunks.summary ?? []) : []),
  ];
  const consent =
    answers.consent && 'answer' in answers.consent ? answers.consent.answer.consent : null;
  return {
    nonce,
    head: '',
    title:
      consent && !params.embed
        ? escapeHtml(standalonePageTitle(consent.counterparty.name))
        : page.title,
    body: params.embed ? ' class="embedded"' : '',
    root,
    afterRoot:
      pageAnswersElement(answers, nonce) +
      scriptsAfterPaint(nonce, entryScripts.entry, [
        ...entryScripts.preloads,
        ...[...(chunks.route ?? []), ...screenChunks].map((file) => `/${file}`),
      ]),
  };
}

/** The consent page, framed only by the origins its consent's client registered. */
function registerConsentPageRoute(app: FastifyInstance, server: TPageServer) {
  const { db } = server;
  app.get<{ Params: { consentId: string }; Querystring: Record<string, string | string[]> }>(
    '/r/:consentId',
    async (request, reply) => {
      const { consentId } = request.params;
      const clientId = request.query.clientId;
      // Blank is absent, as the page reads it (page-params.ts).
      if (clientId === undefined || (typeof clientId === 'string' && !clientId.trim())) {
        return sendConsentPage(server, request, reply, '*', consentId, null);
      }
      // A repeated clientId names no one client: no merchant may frame the page, and the page
      // reads the first, so its consent is neither read here nor preloaded.
      if (typeof clientId !== 'string') {
        return sendConsentPage(server, request, reply, "'self'", consentId, null, { draw: false });
      }
      const origins = await embedOriginsOfConsent(db, consentId, clientId.trim());
      return sendConsentPage(
        server,
        request,
        reply,
        ["'self'", ...origins].join(' '),
        consentId,
        clientId.trim(),
      );
    },
  );
}

/**
 * The app's other pages, each framed only by our own origin. The grant-signing sandbox is one
 * of the sandbox's pages: beside a live key no sandbox route answers (docs/going-live.md).
 */
function registerAppPageRoutes(app: FastifyInstance, server: TPageServer, live: boolean) {
  const sandboxPages = live ? [] : ['/sandbox/grant-signing'];
  const pages = ['/', '/login', PAYER_CONSENTS_PATH, `${DEBIT_NOTICE_PATH}/:token`, '/f/:formId'];
  for (const route of [...pages, ...sandboxPages]) {
    app.get(route, async (_request, reply) => sendPage(server, reply, "'self'"));
  }
}

/**
 * Serves the built page. The consent page may be framed only by origins registered by the client
 * that owns the consent (CSP frame-ancestors, services/merchants/embed-origins.ts); without a clientId it
 * shows only an error, which any parent may frame so the embed protocol can report it.
 */
export const pageRoutes: FastifyPluginAsync<TPageOptions> = async (app, options) => {
  const server = await loadPageServer(options);
  await registerBuildFiles(app, options.webDir);
  registerConsentPageRoute(app, server);
  registerAppPageRoutes(app, server, isLive(options.config));
};
