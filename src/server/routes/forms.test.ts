import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZConsentReadResponse } from '../../domain/schemas/consent';
import {
  FORM_MAX_VERSION,
  ZCreateFormResponse,
  ZFormReadResponse,
  ZMerchantFormResponse,
  ZSaveFormSectionResponse,
  ZUploadFormFileResponse,
} from '../../domain/schemas/form';
import { SAMPLE_FORM_INPUT } from '../../domain/test-support/form-fixtures';
import { buildApp } from '../app';
import { consents, merchantEvents } from '../db/schema';
import type { TDatabase } from '../db/database';
import { seedDemo } from '../services/demo/demo-seed';
import { assertFormCompleteForGrant } from '../services/forms/forms';
import { createTestClient, openTestDatabase, testClock, testConfig } from '../testing/test-app';
import { payerWithPasskey, signedGrant } from '../testing/identity';

let app: FastifyInstance;
let database: TDatabase;
let dataDir: string;
let client: Awaited<ReturnType<typeof createTestClient>>;
let other: Awaited<ReturnType<typeof createTestClient>>;
const clock = testClock(new Date());

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'forms-test-'));
  database = await openTestDatabase();
  app = await buildApp({ config: { ...testConfig(), dataDir }, database, logger: false, clock });
  await app.ready();
  client = await createTestClient(database, { name: 'Lagos Fitness Club' });
  other = await createTestClient(database, { name: 'Other Shop' });
});
afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Helpers

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(200, 7),
]);
const PDF = Buffer.from('%PDF-1.7\n% a test document\n');

const postForm = (body: unknown, as = client, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/forms',
    headers: { authorization: as.authorization, ...headers },
    payload: body as object,
  });

async function createForm(body: unknown = SAMPLE_FORM_INPUT, as = client) {
  const response = await postForm(body, as);
  expect(response.statusCode).toBe(201);
  return ZCreateFormResponse.parse(response.json());
}

async function createConsent(formId: string, as = client): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: as.authorization },
    payload: { formId },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ consentId: string }>().consentId;
}

const readForm = (formId: string, consentId?: string, clientId = client.clientId) =>
  app.inject({
    method: 'GET',
    url: '/api/form',
    query: consentId ? { formId, consentId, clientId } : { formId },
  });

const saveSection = (
  consentId: string,
  sectionId: string,
  answers: Record<string, unknown>,
  formUpdateToken?: string,
  clientId = client.clientId,
) =>
  app.inject({
    method: 'PUT',
    url: `/api/form/sections/${sectionId}`,
    payload: { consentId, clientId, answers, ...(formUpdateToken ? { formUpdateToken } : {}) },
  });

const upload = (
  consentId: string,
  fieldId: string,
  bytes: Buffer,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url: '/api/form/files',
    query: { consentId, clientId: client.clientId, fieldId },
    headers: {
      'content-type': 'application/octet-stream',
      'x-file-name': 'id%20card.png',
      ...headers,
    },
    payload: bytes,
  });

const errorOf = (response: { statusCode: number; json(): unknown }) => ({
  status: response.statusCode,
  ...(response.json() as { error: { code: string; message: string } }).error,
});

const ABOUT = { fullName: 'Ada Obi', email: 'ada@example.ng', phone: '0803 123 4567' };
const HEALTH = { heartCondition: false, goal: 'fitness', weightKg: 70 };

// ---------------------------------------------------------------------------------------------

describe('POST /api/v1/forms: the definition', () => {
  it('creates a form at version 1 and lists its placeholders', async () => {
    const created = await createForm();
    expect(created.formId).toMatch(/^frm_/);
    expect(created.version).toBe(1);
    expect(created.placeholders).toEqual(['memberName', 'planName']);
  });

  it('refuses a bad definition with 400 naming the field', async () => {
    const bad = structuredClone(SAMPLE_FORM_INPUT) as { sections: Array<{ fields: object[] }> };
    bad.sections[1]?.fields.push({ id: 'pulse', kind: 'heartbeat', label: 'Pulse' });
    expect(errorOf(await postForm(bad))).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^sections\.1\.fields\.4\.kind: Invalid discriminator value/),
    });
    const choice = {
      title: 'T',
      sections: [
        {
          id: 's',
          title: 'S',
          fields: [
            { id: 'c', kind: 'single_choice', label: 'C', options: [{ value: 'a', label: 'A' }] },
          ],
        },
      ],
    };
    expect(errorOf(await postForm(choice)).message).toMatch(/^sections\.0\.fields\.0\.options: /);
  });

  it('refuses a form of 1,000 fields with 400, and stores nothing', async () => {
    const sections = Array.from({ length: 20 }, (_, s) => ({
      id: `s${s}`,
      title: `Section ${s}`,
      fields: Array.from({ length: 50 }, (_, f) => ({
        id: `f${s}_${f}`,
        kind: 'short_text',
        label: `Question ${f}`,
      })),
    }));
    expect(errorOf(await postForm({ title: 'Everything', sections }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'sections: a form holds at most 200 fields (this one has 1000)',
    });
  });

  it('needs client credentials before it reads the body', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/v1/forms', payload: { x: 1 } });
    expect(errorOf(response)).toMatchObject({ status: 401, code: 'INVALID_CLIENT_CREDENTIALS' });
  });

  it('answers a retry with the same Idempotency-Key with the first form, and refuses another body', async () => {
    const key = { 'idempotency-key': 'form-create-1' };
    const first = await postForm(SAMPLE_FORM_INPUT, client, key);
    const again = await postForm(SAMPLE_FORM_INPUT, client, key);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const changed = { ...SAMPLE_FORM_INPUT, title: 'Another form' };
    expect(errorOf(await postForm(changed, client, key))).toMatchObject({
      status: 409,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
  });
});

describe('versions', () => {
  it('a consent keeps the version it was created with; new consents get the new one', async () => {
    const { formId } = await createForm();
    const before = await createConsent(formId);
    const v2 = await app.inject({
      method: 'POST',
      url: `/api/v1/forms/${formId}/versions`,
      headers: { authorization: client.authorization },
      payload: { ...SAMPLE_FORM_INPUT, title: 'Membership form, 2nd edition' },
    });
    expect(v2.statusCode).toBe(201);
    expect(ZCreateFormResponse.parse(v2.json()).version).toBe(2);
    const after = await createConsent(formId);

    const oldRead = ZFormReadResponse.parse((await readForm(formId, before)).json());
    expect(oldRead.data.form).toMatchObject({ version: 1, title: 'Membership for' });
    const newRead = ZFormReadResponse.parse((await readForm(formId, after)).json());
    expect(newRead.data.form).toMatchObject({ version: 2, title: 'Membership form, 2nd edition' });
    const byId = ZFormReadResponse.parse((await readForm(formId)).json());
    expect(byId.data.form.version).toBe(2);
    expect(byId.data.response).toBeNull();

    // The response started on version 1 stays on it when a third version comes.
    const saved = await saveSection(before, 'about', ABOUT);
    expect(saved.statusCode).toBe(200);
    await app.inject({
      method: 'POST',
      url: `/api/v1/forms/${formId}/versions`,
      headers: { authorization: client.authorization },
      payload: { ...SAMPLE_FORM_INPUT, title: 'Third' },
    });
    const resumed = ZFormReadResponse.parse((await readForm(formId, before)).json());
    expect(resumed.data.form.version).toBe(1);
    expect(resumed.data.response?.formVersion).toBe(1);
  });

  it("refuses a consent that names another merchant's form with a 400 naming formId, creating nothing", async () => {
    const { formId } = await createForm(SAMPLE_FORM_INPUT, other);
    const [before] = await database.db.select({ n: count() }).from(consents);
    const named = await app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: client.authorization },
      payload: { formId, payments: [{ type: 'immediate', amount: 5_000, narration: 'Fee' }] },
    });
    expect(named.statusCode).toBe(400);
    expect(named.json()).toEqual({
      success: false,
      error: { code: 'VALIDATION_FAILED', message: 'formId: not a form of this merchant' },
    });
    const [after] = await database.db.select({ n: count() }).from(consents);
    expect(after?.n).toBe(before?.n);
    // Its own merchant names it, and so may a merchant its own form.
    await createConsent(formId, other);
    await createConsent((await createForm()).formId);
  });

  it('another client cannot add a version to a form, read it or preview it: it is not found', async () => {
    const { formId } = await createForm();
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1/forms/${formId}/versions`,
      headers: { authorization: other.authorization },
      payload: SAMPLE_FORM_INPUT,
    });
    expect(errorOf(response)).toMatchObject({ status: 404, code: 'FORM_NOT_FOUND' });
    const read = await app.inject({
      method: 'GET',
      url: `/api/v1/forms/${formId}`,
      headers: { authorization: other.authorization },
    });
    expect(errorOf(read)).toMatchObject({ status: 404, code: 'FORM_NOT_FOUND' });
    const preview = await app.inject({
      method: 'POST',
      url: `/api/v1/forms/${formId}/preview`,
      headers: { authorization: other.authorization },
      payload: { templateLiteralValues: {} },
    });
    expect(errorOf(preview)).toMatchObject({ status: 404, code: 'FORM_NOT_FOUND' });
  });

  it('shows the merchant its form as written, and a preview that keeps unknown placeholders', async () => {
    const { formId } = await createForm();
    const read = await app.inject({
      method: 'GET',
      url: `/api/v1/forms/${formId}`,
      headers: { authorization: client.authorization },
    });
    expect(read.json()).toMatchObject({
      version: 1,
      latestVersion: 1,
      placeholders: ['memberName', 'planName'],
    });
    const preview = await app.inject({
      method: 'POST',
      url: `/api/v1/forms/${formId}/preview`,
      headers: { authorization: client.authorization },
      payload: { templateLiteralValues: { memberName: 'Ada' } },
    });
    expect(preview.json()).toMatchObject({
      definition: {
        title: 'Membership for Ada',
        description: 'A few questions before {{planName}} starts.',
      },
      missingPlaceholders: ['planName'],
    });
  });
});

describe('numbers and texts at their limits', () => {
  it('refuses a preview or read of a version past what a version can be with 400, naming it', async () => {
    const { formId } = await createForm();
    for (const version of [2_147_483_648, 2 ** 53 + 2, FORM_MAX_VERSION + 1]) {
      const preview = await app.inject({
        method: 'POST',
        url: `/api/v1/forms/${formId}/preview`,
        headers: { authorization: client.authorization },
        payload: { version },
      });
      expect({ version, ...errorOf(preview) }).toMatchObject({
        version,
        status: 400,
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(/^version: /),
      });
      const read = await app.inject({
        method: 'GET',
        url: `/api/v1/forms/${formId}?version=${version}`,
        headers: { authorization: client.authorization },
      });
      expect({ version, status: read.statusCode }).toEqual({ version, status: 400 });
    }
    const latest = await app.inject({
      method: 'POST',
      url: `/api/v1/forms/${formId}/preview`,
      headers: { authorization: client.authorization },
      payload: { version: FORM_MAX_VERSION },
    });
    expect(errorOf(latest)).toMatchObject({ status: 404 });
  });

  it('cuts a filled title past its limit between characters, never inside an emoji', async () => {
    const { formId } = await createForm({ ...SAMPLE_FORM_INPUT, title: 'xx{{memberName}}' });
    const preview = await app.inject({
      method: 'POST',
      url: `/api/v1/forms/${formId}/preview`,
      headers: { authorization: client.authorization },
      payload: { templateLiteralValues: { memberName: '💸'.repeat(150) } },
    });
    expect(preview.statusCode).toBe(200);
    const title = preview.json<{ definition: { title: string } }>().definition.title;
    expect(title).toBe(`xx${'💸'.repeat(148)}…`);
  });

  it('keeps a file name cut at its limit whole, never half an emoji', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    const name = `${'a'.repeat(119)}💸.png`;
    const response = await upload(consentId, 'idDocument', PNG, {
      'x-file-name': encodeURIComponent(name),
    });
    expect(response.statusCode).toBe(201);
    expect(ZUploadFormFileResponse.parse(response.json()).file.fileName).toBe('a'.repeat(119));
  });
});

describe('GET /api/form', () => {
  it('answers data.form.title and the sections, placeholders filled from the consent', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    await database.db
      .update(consents)
      .set({ formTemplateValues: { memberName: 'Ada Obi' } })
      .where(eq(consents.id, consentId));
    const response = await readForm(formId, consentId);
    expect(response.statusCode).toBe(200);
    const { data } = ZFormReadResponse.parse(response.json());
    expect(data.form.title).toBe('Membership for Ada Obi');
    expect(data.form.sections.map((s) => s.id)).toEqual(['about', 'health', 'agreement']);
    expect(data.form.sections[2]?.fields[1]?.label).toBe('I, Ada Obi, agree to the gym rules');
    // planName has no value: the payer never sees braces.
    expect(JSON.stringify(data)).not.toContain('{{');
  });

  it('refuses an unknown form, a consent of another client and a consent without this form', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    expect(errorOf(await readForm('frm_unknown'))).toMatchObject({
      status: 404,
      code: 'FORM_NOT_FOUND',
    });
    expect(errorOf(await readForm(formId, consentId, other.clientId))).toMatchObject({
      status: 403,
      code: 'CONSENT_FORBIDDEN',
    });
    const { formId: otherForm } = await createForm();
    expect(errorOf(await readForm(otherForm, consentId))).toMatchObject({
      status: 404,
      code: 'FORM_NOT_FOUND',
    });
    const byIdForOther = await app.inject({
      method: 'GET',
      url: '/api/form',
      query: { formId, clientId: other.clientId },
    });
    expect(errorOf(byIdForOther)).toMatchObject({ status: 404, code: 'FORM_NOT_FOUND' });
  });
});

describe('saving answers section by section', () => {
  it('saves, resumes and says which fields fail', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    const first = await saveSection(consentId, 'about', { ...ABOUT, phone: '12345' });
    expect(first.statusCode).toBe(200);
    const saved = ZSaveFormSectionResponse.parse(first.json());
    expect(saved.section).toEqual({
      id: 'about',
      complete: false,
      errors: { phone: 'Enter a Nigerian mobile number, e.g. 0803 123 4567' },
    });
    expect(saved.allComplete).toBe(false);

    const fixed = await saveSection(consentId, 'about', ABOUT, saved.formUpdateToken);
    expect(ZSaveFormSectionResponse.parse(fixed.json()).section.complete).toBe(true);

    // A reload (or another device) reads the answers back, with the token to save on.
    const resumed = ZFormReadResponse.parse((await readForm(formId, consentId)).json());
    expect(resumed.data.response).toMatchObject({
      id: saved.formResponseId,
      updateToken: saved.formUpdateToken,
      sections: { about: { answers: ABOUT, complete: true } },
    });
    // The consent carries the response's id and token (spec §3).
    const read = await app.inject({
      method: 'GET',
      url: `/api/consent/${consentId}`,
      query: { clientId: client.clientId },
    });
    const { consent } = ZConsentReadResponse.parse(read.json());
    expect(consent.formResponseId).toBe(saved.formResponseId);
    expect(consent.formUpdateToken).toBe(saved.formUpdateToken);
  });

  it('needs the token once the first save issued it, and refuses a wrong one', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    expect(errorOf(await saveSection(consentId, 'about', ABOUT, 'fut_madeup'))).toMatchObject({
      status: 403,
      code: 'FORM_UPDATE_TOKEN_INVALID',
    });
    const first = ZSaveFormSectionResponse.parse(
      (await saveSection(consentId, 'about', ABOUT)).json(),
    );
    expect(errorOf(await saveSection(consentId, 'health', HEALTH))).toMatchObject({
      status: 409,
      code: 'FORM_UPDATE_TOKEN_REQUIRED',
    });
    expect(
      errorOf(await saveSection(consentId, 'health', HEALTH, `${first.formUpdateToken}x`)),
    ).toMatchObject({
      status: 403,
      code: 'FORM_UPDATE_TOKEN_INVALID',
    });
    expect((await saveSection(consentId, 'health', HEALTH, first.formUpdateToken)).statusCode).toBe(
      200,
    );
  });

  it('refuses an unknown section, an answer to no field, and another client', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    expect(errorOf(await saveSection(consentId, 'payment', ABOUT))).toMatchObject({
      status: 404,
      code: 'FORM_SECTION_NOT_FOUND',
    });
    expect(errorOf(await saveSection(consentId, 'about', { ...ABOUT, goal: 'x' }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'answers.goal: is not a field of this section',
    });
    expect(
      errorOf(await saveSection(consentId, 'about', ABOUT, undefined, other.clientId)),
    ).toMatchObject({
      status: 403,
      code: 'CONSENT_FORBIDDEN',
    });
    expect(
      errorOf(await saveSection(consentId, 'about', { fullName: { nested: true } })),
    ).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
  });

  it('refuses a NUL or a lone surrogate anywhere in the answers with 400 naming the field, and keeps nothing', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    const unstorable = ': must not contain a NUL character or a lone surrogate';
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['about', { ...ABOUT, fullName: 'Ada\u0000Obi' }, `answers.fullName${unstorable}`],
      ['about', { ...ABOUT, notes: 'a\ud800b' }, `answers.notes${unstorable}`],
      ['about', { ...ABOUT, notes: '\udc00' }, `answers.notes${unstorable}`],
      ['health', { ...HEALTH, days: ['mon', 'w\u0000ed'] }, `answers.days.1${unstorable}`],
      ['health', { ...HEALTH, goal: ['\ud83d'] }, `answers.goal.0${unstorable}`],
      ['about', { ...ABOUT, ['full\u0000Name']: 'x' }, 'answers.full\u0000Name: Invalid key'],
      ['about', { ...ABOUT, ['\ud800']: 'x' }, 'answers.\ud800: Invalid key'],
    ];
    for (const [section, answers, message] of refusals) {
      const refused = errorOf(await saveSection(consentId, section, answers));
      expect({ answers, ...refused }).toMatchObject({
        answers,
        status: 400,
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining(message),
      });
    }
    expect((await readForm(formId, consentId)).json()).toMatchObject({ data: { response: null } });
    // A line break is text the database keeps: the field's own check judges it.
    const saved = await saveSection(consentId, 'about', { ...ABOUT, notes: 'Knee\r\ninjury 🦵' });
    expect(saved.statusCode).toBe(200);
  });

  it('refuses answers once the consent is no longer pending', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    await database.db.update(consents).set({ status: 'granted' }).where(eq(consents.id, consentId));
    expect(errorOf(await saveSection(consentId, 'about', ABOUT))).toMatchObject({
      status: 409,
      code: 'FORM_RESPONSE_CLOSED',
    });
  });

  it('a consent without a form has nothing to save', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: client.authorization },
      payload: { dataSharing: { bvnData: true } },
    });
    const { consentId } = response.json<{ consentId: string }>();
    expect(errorOf(await saveSection(consentId, 'about', ABOUT))).toMatchObject({
      status: 404,
      code: 'FORM_NOT_FOUND',
    });
    expect(await assertFormCompleteForGrant(database.db, consentId)).toBeNull();
  });
});

describe('files', () => {
  it('stores an image under DATA_DIR, typed by its content, and the field answers its id', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    // Sent as image/jpeg, but its bytes are a PNG: it is stored as what it is.
    const response = await upload(consentId, 'idDocument', PNG, { 'content-type': 'image/jpeg' });
    expect(response.statusCode).toBe(201);
    const { file, formUpdateToken } = ZUploadFormFileResponse.parse(response.json());
    expect(file).toMatchObject({
      fieldId: 'idDocument',
      mediaType: 'image/png',
      size: PNG.length,
      fileName: 'id card.png',
    });
    const stored = path.join(dataDir, 'form-files');
    expect(existsSync(stored) && readdirSync(stored).length).toBeGreaterThan(0);
    const saved = await saveSection(
      consentId,
      'agreement',
      { idDocument: file.id, terms: true },
      formUpdateToken,
    );
    expect(ZSaveFormSectionResponse.parse(saved.json()).section.complete).toBe(true);
    const resumed = ZFormReadResponse.parse((await readForm(formId, consentId)).json());
    expect(resumed.data.response?.files).toEqual([file]);
  });

  it('refuses content that is not an image or PDF, whatever it claims to be', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    expect(
      errorOf(await upload(consentId, 'idDocument', svg, { 'content-type': 'image/png' })),
    ).toEqual({
      status: 415,
      code: 'FORM_FILE_TYPE_NOT_ALLOWED',
      message: 'Upload JPEG, PNG, WebP or PDF, up to 1 MB',
    });
    const json = await app.inject({
      method: 'POST',
      url: '/api/form/files',
      query: { consentId, clientId: client.clientId, fieldId: 'idDocument' },
      payload: { not: 'a file' },
    });
    expect(errorOf(json)).toMatchObject({ status: 415, code: 'FORM_FILE_TYPE_NOT_ALLOWED' });
    const text = await upload(consentId, 'idDocument', PNG, { 'content-type': 'text/plain' });
    expect(errorOf(text)).toMatchObject({ status: 415, code: 'FORM_FILE_TYPE_NOT_ALLOWED' });
  });

  it("holds a file to its field's size limit, and every file to 10 MB", async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    const twoMb = Buffer.concat([PDF, Buffer.alloc(2 * 1024 * 1024)]);
    expect(errorOf(await upload(consentId, 'idDocument', twoMb))).toEqual({
      status: 413,
      code: 'FORM_FILE_TOO_LARGE',
      message: 'The file is larger than 1 MB',
    });
    const elevenMb = Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024)]);
    expect(errorOf(await upload(consentId, 'idDocument', elevenMb))).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('refuses a file for a field that takes none, and an answer naming a file not uploaded there', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    expect(errorOf(await upload(consentId, 'fullName', PDF))).toMatchObject({
      status: 400,
      message: 'fieldId: is not a file field of this form',
    });
    const elsewhere = await createConsent(formId);
    const { file } = ZUploadFormFileResponse.parse(
      (await upload(elsewhere, 'idDocument', PDF)).json(),
    );
    const first = ZSaveFormSectionResponse.parse(
      (await saveSection(consentId, 'about', ABOUT)).json(),
    );
    expect(
      errorOf(
        await saveSection(
          consentId,
          'agreement',
          { idDocument: file.id, terms: true },
          first.formUpdateToken,
        ),
      ),
    ).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'answers.idDocument: is not a file uploaded here',
    });
  });
});

describe('the grant check and the merchant read', () => {
  it('assertFormCompleteForGrant refuses an incomplete form and answers the response when complete', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    await expect(assertFormCompleteForGrant(database.db, consentId)).rejects.toMatchObject({
      code: 'FORM_INCOMPLETE',
    });
    const first = ZSaveFormSectionResponse.parse(
      (await saveSection(consentId, 'about', ABOUT)).json(),
    );
    const token = first.formUpdateToken;
    await saveSection(consentId, 'health', HEALTH, token);
    const { file } = ZUploadFormFileResponse.parse(
      (await upload(consentId, 'idDocument', PNG, { 'x-form-update-token': token })).json(),
    );
    const unsigned = await saveSection(
      consentId,
      'agreement',
      { idDocument: file.id, terms: false },
      token,
    );
    expect(ZSaveFormSectionResponse.parse(unsigned.json()).allComplete).toBe(false);
    await expect(assertFormCompleteForGrant(database.db, consentId)).rejects.toMatchObject({
      code: 'FORM_INCOMPLETE',
      message: 'Complete all form sections to continue.',
    });
    const signed = await saveSection(
      consentId,
      'agreement',
      { idDocument: file.id, terms: true },
      token,
    );
    expect(ZSaveFormSectionResponse.parse(signed.json()).allComplete).toBe(true);
    expect(await assertFormCompleteForGrant(database.db, consentId)).toEqual({
      formResponseId: first.formResponseId,
    });
  });

  it("the grant makes the answers final and tells the merchant once: 'form.completed'", async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    const first = ZSaveFormSectionResponse.parse(
      (await saveSection(consentId, 'about', ABOUT)).json(),
    );
    const token = first.formUpdateToken;
    await saveSection(consentId, 'health', HEALTH, token);
    const { file } = ZUploadFormFileResponse.parse(
      (await upload(consentId, 'idDocument', PNG, { 'x-form-update-token': token })).json(),
    );
    await saveSection(consentId, 'agreement', { idDocument: file.id, terms: true }, token);

    const payer = await payerWithPasskey(app, { ...testConfig(), dataDir });
    const body = {
      originalRequestId: null,
      consentData: { consentId },
      userAuthenticated: true,
      attestDiscoveryId: null,
    };
    const grantOnce = async () =>
      app.inject({
        method: 'POST',
        url: `/api/consent/${consentId}/grant`,
        headers: payer.headers,
        payload: await signedGrant(app, payer.soft, payer.token, consentId, body),
      });
    const granted = await grantOnce();
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ status: 'granted' });
    // A retry of the grant answers the same and tells the merchant nothing more.
    expect((await grantOnce()).json()).toMatchObject({ status: 'granted' });

    const events = await database.db
      .select()
      .from(merchantEvents)
      .where(eq(merchantEvents.consentId, consentId));
    const completed = events.filter((e) => e.type === 'form.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]?.data).toEqual({
      consentId,
      formId,
      formResponseId: first.formResponseId,
      submittedAt: expect.any(String),
      reference: null,
      metadata: {},
    });
    expect(events.filter((e) => e.type === 'consent.granted')).toHaveLength(1);
    // Final: a later save is refused.
    const late = await saveSection(consentId, 'about', ABOUT, token);
    expect(late.statusCode).toBe(409);
  });

  it('shows the merchant the answers, with files as links that stop working after 5 minutes', async () => {
    const { formId } = await createForm();
    const consentId = await createConsent(formId);
    const first = ZSaveFormSectionResponse.parse(
      (await saveSection(consentId, 'about', ABOUT)).json(),
    );
    const token = first.formUpdateToken;
    const { file } = ZUploadFormFileResponse.parse(
      (await upload(consentId, 'idDocument', PNG, { 'x-form-update-token': token })).json(),
    );
    await saveSection(consentId, 'agreement', { idDocument: file.id, terms: true }, token);

    const url = `/api/v1/forms/${formId}/responses/${first.formResponseId}`;
    const response = await app.inject({
      method: 'GET',
      url,
      headers: { authorization: client.authorization },
    });
    expect(response.statusCode).toBe(200);
    const { response: answers } = ZMerchantFormResponse.parse(response.json());
    expect(answers).toMatchObject({
      consentId,
      formVersion: 1,
      complete: false,
      submittedAt: null,
    });
    expect(answers.sections[0]?.answers).toContainEqual({
      fieldId: 'phone',
      label: 'Mobile number',
      kind: 'phone',
      value: '0803 123 4567',
    });
    const idAnswer = answers.sections[2]?.answers.find((a) => a.fieldId === 'idDocument');
    expect(idAnswer?.file?.url).toMatch(/^http:\/\/localhost:3999\/api\/v1\/form-files\/ffl_/);

    const link = new URL(idAnswer?.file?.url ?? '');
    const fetched = await app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('image/png');
    expect(fetched.headers['content-disposition']).toContain('attachment');
    expect(Buffer.compare(fetched.rawPayload, PNG)).toBe(0);

    // One character of the signature changed (to another one: a signature may start with 'A').
    const tampered = `${link.pathname}${link.search.replace(/signature=(.)/, (_, first: string) =>
      first === 'A' ? 'signature=B' : 'signature=A',
    )}`;
    expect(errorOf(await app.inject({ method: 'GET', url: tampered }))).toMatchObject({
      status: 403,
      code: 'FORM_FILE_LINK_INVALID',
    });
    clock.advance(5 * 60_000 + 1);
    expect(
      errorOf(await app.inject({ method: 'GET', url: `${link.pathname}${link.search}` })),
    ).toMatchObject({
      status: 403,
      code: 'FORM_FILE_LINK_INVALID',
    });

    const stranger = await app.inject({
      method: 'GET',
      url,
      headers: { authorization: other.authorization },
    });
    expect(errorOf(stranger)).toMatchObject({ status: 404, code: 'FORM_NOT_FOUND' });
  });
});

describe('the demo', () => {
  it('seeds the "everything" consent with a gym questionnaire, its club name filled, once', async () => {
    const config = { ...testConfig(), dataDir };
    await seedDemo(database.db, config);
    const lines = await seedDemo(database.db, config);
    const everything = lines.find((l) => l.label.startsWith('everything'));
    const read = await app.inject({
      method: 'GET',
      url: '/api/form',
      query: {
        formId: 'form_demo_kyc',
        consentId: everything?.consentId ?? '',
        clientId: 'cli_demo',
      },
    });
    expect(read.statusCode).toBe(200);
    const { data } = ZFormReadResponse.parse(read.json());
    expect(data.form.title).toBe('Gym membership questionnaire');
    expect(data.form.sections[2]?.fields[1]?.label).toContain(
      'the Lagos Fitness Club membership rules',
    );
    expect(data.form.sections.map((s) => s.title)).toEqual([
      'About you',
      'Health questionnaire',
      'Identity and agreement',
    ]);
    const kinds = data.form.sections.flatMap((s) => s.fields.map((f) => f.kind));
    expect(kinds).toEqual(expect.arrayContaining(['file', 'agreement', 'phone', 'date']));
  });
});
