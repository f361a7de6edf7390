import { StrictMode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { App } from './app/app';
import { loadFirstScreen } from './app/first-screen';
import { readPageAnswers, seedPageAnswers, type TPageAnswers } from './app/page-answers';
import { preloadConsentScreens } from './app/consent-screens';
import { newQueryClient } from './app/query-client';
import { sessionReady } from './api/http';
import { pageNonce, PageDocumentContext } from './ui/document-context';
import './ui/styles.css';
import './app/first-screen-styles';

const found = document.getElementById('root');
if (!found) throw new Error('The page has no #root element');
const root = found;
const queryClient = newQueryClient();
// The consent's first screen came drawn in the page with the answers it was drawn from
// (src/server/routes/pages.ts): the page takes it over where it is, asking nothing again.
const answers = readPageAnswers(document);
/** The page's React root, once it has the page (the drawn screen's code loads first). */
export const pageRoot: Promise<Root> =
  answers && root.hasChildNodes() ? hydrate(answers) : sessionReady.then(render);

async function hydrate(drawnFrom: TPageAnswers): Promise<Root> {
  seedPageAnswers(queryClient, drawnFrom);
  // Every part of the screen drawn is here before React takes it over: nothing suspends.
  await loadFirstScreen(drawnFrom.parts);
  const drawnWith = {
    nonce: pageNonce(),
    href: window.location.href,
    webBluetooth: drawnFrom.webBluetooth,
  };
  return hydrateRoot(
    root,
    <StrictMode>
      <PageDocumentContext value={drawnWith}>
        <App queryClient={queryClient} />
      </PageDocumentContext>
    </StrictMode>,
  );
}

function render(): Root {
  // The consent page drawn here from the start: the screen a first visit most often needs loads
  // beside it (the server-drawn page loads what its screen holds instead).
  if (window.location.pathname.startsWith('/r/')) preloadConsentScreens();
  const created = createRoot(root);
  created.render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
  return created;
}
