import { expect } from 'vitest';
import type { ApiHarness, TestResponse } from './api-harness.js';

/** Words that must never appear in a response body. */
export const SECRET_FIELDS = [
  'passwordHash',
  'password_hash',
  'verificationCode',
  'codeHash',
  'tokenVersion',
  'pbkdf2',
];

export async function errorOf(res: TestResponse): Promise<{ code: string; message: string; issues?: unknown[] }> {
  const body = await res.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error.message).toBe('string');
  return body.error;
}

export async function registerPending(api: ApiHarness, email: string): Promise<{ token: string; id: string }> {
  const res = await api.request('/v1/auth/register', {
    method: 'POST',
    json: { email, password: 'a long enough password' },
  });
  if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return { token: body.token, id: body.user.id };
}

/** Registers and verifies: the first such account is the owner. Returns a verified session. */
export async function registerOwner(api: ApiHarness, email: string): Promise<{ token: string; id: string }> {
  const pending = await registerPending(api, email);
  const res = await api.request('/v1/auth/verify', { method: 'POST', json: { code: api.lastCode('/verify') } });
  if (res.status !== 200) throw new Error(`verify ${email}: ${res.status} ${await res.text()}`);
  return pending;
}

export async function createArticle(api: ApiHarness, token: string, json: Record<string, unknown> = {}) {
  const res = await api.request('/v1/articles', { method: 'POST', token, json: { title: 'Hello', ...json } });
  if (res.status !== 201) throw new Error(`create article: ${res.status} ${await res.text()}`);
  return (await res.json()).article as { id: string; status: string; [k: string]: unknown };
}

export async function upload(
  api: ApiHarness,
  token: string,
  articleId: string,
  bytes: Uint8Array,
  name = 'photo.jpg',
  type = 'image/jpeg',
) {
  const form = new FormData();
  form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
  return api.request(`/v1/articles/${articleId}/images`, { method: 'POST', token, body: form });
}

/** Invites an admin and accepts for them: a verified, non-owner session. */
export async function inviteAdmin(
  api: ApiHarness,
  ownerToken: string,
  email: string,
): Promise<{ token: string; id: string }> {
  const invited = await api.request('/v1/user/invite', {
    method: 'POST',
    token: ownerToken,
    json: { email, role: 'admin' },
  });
  if (invited.status !== 201) throw new Error(`invite ${email}: ${invited.status} ${await invited.text()}`);
  const res = await api.request('/v1/auth/invitation/accept', {
    method: 'POST',
    json: { code: api.lastCode('/accept-invite'), password: 'a long enough password' },
  });
  if (res.status !== 201) throw new Error(`accept ${email}: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return { token: body.token, id: body.user.id };
}
