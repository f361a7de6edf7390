import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { readPageAnswers, seedPageAnswers } from './app/page-answers';
import { newQueryClient } from './app/query-client';
import { pageNonce, PageDocumentContext } from './ui/document-context';
import './ui/styles.css';
import './app/first-screen-styles';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
const queryClient = newQueryClient();
// The consent's first screen came drawn in the page with the answers it was drawn from
// (src/server/routes/pages.ts): the page takes it over where it is, asking nothing again.
const answers = readPageAnswers(document);
if (answers && root.hasChildNodes()) {
  seedPageAnswers(queryClient, answers);
  const drawnWith = {
    nonce: pageNonce(),
    href: window.location.href,
    webBluetooth: answers.webBluetooth,
  };
  hydrateRoot(
    root,
    <StrictMode>
      <PageDocumentContext value={drawnWith}>
        <App queryClient={queryClient} />
      </PageDocumentContext>
    </StrictMode>,
  );
} else {
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
}
