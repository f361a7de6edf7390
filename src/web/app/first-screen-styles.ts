// The styles of the consent's first screens (the summary, the auth prompt, Immediate Payment and
// the desktop side panel) travel in the page's one stylesheet: the server draws those screens
// (src/web/server-render.tsx), so they must be styled before any of their scripts arrive. Their
// components import them too; a file already in this stylesheet is not sent a second time.
import '../features/consent/consent-header.css';
import '../features/consent/representative.css';
import '../features/consent/consent-flow.css';
import '../features/consent/consent-side-panel.css';
import '../features/auth/auth.css';
import '../features/payment/payment.css';
