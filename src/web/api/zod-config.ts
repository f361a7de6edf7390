import { z } from 'zod/mini';
import { en } from 'zod/locales';

// The page's CSP allows no eval: zod must not probe for it (the probe is reported as a
// violation). Imported first by every module of the page that parses, so it runs before any
// parse, in whichever chunk zod arrives.
z.config({ jitless: true });
// zod/mini loads no messages of its own: the page says what the server says (whose zod loads
// English), e.g. a full name left empty on the sign-in form.
z.config(en());
