import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { App } from './app/app';
import { seedPageAnswers, type TPageAnswers } from './app/page-answers';
import { newQueryClient } from './app/query-client';
import { PageDocumentContext } from './ui/document-context';
import { preloadEveryPart } from './ui/preloadable';

/** The code of every part of the page, loaded: called once, before the first page is drawn. */
export const loadPageCode = preloadEveryPart;

export type TServerRender = {
  /** The page's path and query string, as the browser asked for them. */
  path: string;
  search: string;
  /** The page's address as the browser knows it (the side panel's QR code carries it). */
  href: string;
  /** The CSP nonce of this answer: the page's inline styles carry it. */
  nonce: string;
  answers: TPageAnswers;
  /** Gives up after this long: the page is then drawn by its scripts alone, as before. */
  timeoutMs: number;
};

/**
 * The page's HTML for `<div id="root">`, drawn by the page's own components from the answers it
 * would fetch, every lazy screen of it awaited: what the browser shows before any script runs,
 * and what the page's scripts hydrate (src/web/main.tsx). Rejects when a part could not be drawn.
 */
export async function renderPageHtml({
  path,
  search,
  href,
  nonce,
  answers,
  timeoutMs,
}: TServerRender): Promise<string> {
  const client = newQueryClient();
  seedPageAnswers(client, answers);
  const failures: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <PageDocumentContext value={{ nonce, href, webBluetooth: answers.webBluetooth }}>
      <Router ssrPath={path} ssrSearch={search}>
        <App queryClient={client} />
      </Router>
    </PageDocumentContext>,
    { signal: AbortSignal.timeout(timeoutMs), onError: (error) => void failures.push(error) },
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  client.clear();
  if (failures.length > 0) throw failures[0];
  return html;
}
