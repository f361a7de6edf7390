import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { startTestApp } from '../testing/test-app';
it('dumps', async () => {
  const t = await startTestApp();
  const r = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  writeFileSync('/tmp/openapi/doc.json', r.body);
  await t.close();
});
