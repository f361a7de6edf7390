import { z } from 'zod/mini';

// The page's CSP allows no eval: zod must not probe for it (the probe is reported as a
// violation). Imported first by every module of the page that parses, so it runs before any
// parse, in whichever chunk zod arrives.
z.config({ jitless: true });
