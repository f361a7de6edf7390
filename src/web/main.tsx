import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { App } from './app/app';
import { loadFirstScreen } from './app/first-screen';
import { readPageAnswers, seedPageAnswers, type TPageAnswers } from './app/page-answers';
import { preloadConsentScreens } from './app/consent-screens';
import { newQueryClient } from './app/query-client';
import { sessionReady } from './api/http';
import { nextTask } from './api/next-task';
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
/** The page's React root. */
export const pageRoot: Promise<Root> =
  answers && root.hasChildNodes() ? hydrate(answers) : sessionReady.then(render);

/**
 * Takes the drawn screen over. The scripts' evaluation, the answers' seeding and React's first
 * slice each have a task of their own: together they were a phone's longest.
 */
async function hydrate(drawnFrom: TPageAnswers): Promise<Root> {
  await nextTask();
  seedPageAnswers(queryClient, drawnFrom);
  // The code of the screen's parts loads now, all at once (the server preloaded it). React takes
  // over at once what is here, and each part as its code comes; a click on a part still waiting
  // is held and replayed once it is taken over, not lost. Nothing above a waiting part changes
  // meanwhile (the signed-out session is one object, the side panel reads its width itself), or
  // React would draw that part again in the browser, its Loading screen first.
  void loadFirstScreen(drawnFrom.parts);
  await nextTask();
  const drawnWith = {
    nonce: pageNonce(),
    href: window.location.href,
    webBluetooth: drawnFrom.webBluetooth,
  };
  // In a transition, React takes the screen over in slices, yielding to the browser between
  // them (a tap, a frame): at the default priority it would do it in one long task.
  let hydrated: Root | undefined;
  startTransition(() => {
    hydrated = hydrateRoot(
      root,
      <StrictMode>
        <PageDocumentContext value={drawnWith}>
          <App queryClient={queryClient} />
        </PageDocumentContext>
      </StrictMode>,
    );
  });
  if (!hydrated) throw new Error('hydrateRoot gave no root');
  return hydrated;
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
