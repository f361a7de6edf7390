import { startTracing } from './observability/tracing';

/*
 * The server's entry (`npm start` runs its build, dist/server/main.mjs). Tracing starts first,
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md "Traces"), and only then are the
 * app's modules loaded: the pg instrumentation patches pg as it is loaded, so pg must not be
 * loaded before it (the build keeps pg out of the bundle and the server in a chunk of its own
 * for the same reason, scripts/build-server.ts).
 */

try {
  await startTracing();
  const { serve } = await import('./serve');
  await serve();
} catch (error: unknown) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
