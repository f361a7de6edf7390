// Lets Node run the server from its TypeScript sources (tsx) where it draws the consent page's
// first screen with the page's own components (src/web/server-render.tsx): their stylesheet
// imports are the browser's, and read here as empty modules. The built server does the same with
// esbuild (scripts/build-server.ts). Used as `tsx --import ./scripts/style-imports.ts …`.
import { register } from 'node:module';

const hooks = `export async function load(url, context, next) {
  if (new URL(url).pathname.endsWith('.css')) {
    return { format: 'module', source: '', shortCircuit: true };
  }
  return next(url, context);
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
