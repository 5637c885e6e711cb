import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAccountsApiContract } from '../../contract/features/accounts/accounts-api.contract.js';
import { runAuthApiContract } from '../../contract/features/accounts/auth-api.contract.js';
import { runUsersApiContract } from '../../contract/features/accounts/users-api.contract.js';
import { errorOf, registerOwner } from '../../support/api-flows.js';
import {
  NODE_MAX_UPLOAD_BYTES,
  NODE_TEST_JWT_SECRET,
  type NodeHarness,
  nodeHarness,
  nodeWebhookReceiver,
} from '../../support/node-harness.js';

// The account flows again, with every code read from e-mails that worker-mailer
// really delivered over SMTP (through the Node sockets shim) to a catcher.
const name = 'Node, SQLite, SMTP';
const setup = () => nodeHarness({ db: 'sqlite', storage: 'local', mail: 'smtp' });

runAuthApiContract(name, setup, {
  jwtSecret: NODE_TEST_JWT_SECRET,
  maxUploadBytes: NODE_MAX_UPLOAD_BYTES,
  target: 'node',
  webhookReceiver: nodeWebhookReceiver,
});
runAccountsApiContract(name, setup);
runUsersApiContract(name, setup);

describe(`failed e-mail (${name})`, () => {
  let api: NodeHarness;
  beforeAll(async () => {
    api = await setup();
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  it('sends multipart messages with a clear subject', async () => {
    await api.request('/v1/auth/register', {
      method: 'POST',
      json: { email: 'mailcheck@example.com', password: 'a long enough password' },
    });
    const raw = api.smtp!.messages.at(-1)!.raw;
    expect(raw).toMatch(/^Subject: Confirm your e-mail address/m);
    expect(raw).toMatch(/multipart\/alternative/);
    expect(raw).toMatch(/text\/html/);
    // Cancel it so the next test starts with registration open and no account.
    const token = (
      await (
        await api.request('/v1/auth/login', {
          method: 'POST',
          json: { email: 'mailcheck@example.com', password: 'a long enough password' },
        })
      ).json()
    ).token;
    expect((await api.request('/v1/auth/registration', { method: 'DELETE', token })).status).toBe(204);
  });

  it('answers 503 and leaves nothing half-done when the SMTP server is down', async () => {
    const owner = await registerOwner(api, 'owner@example.com');
    await api.smtp!.stop();
    const invite = await api.request('/v1/user/invite', {
      method: 'POST',
      token: owner.token,
      json: { email: 'new@example.com' },
    });
    expect(invite.status).toBe(503);
    expect((await errorOf(invite)).code).toBe('unavailable');
    expect((await (await api.request('/v1/user/invite', { token: owner.token })).json()).items).toEqual([]);
    const resend = await api.request('/v1/auth/verify/resend', { method: 'POST', token: owner.token });
    expect(resend.status).toBe(409);
  });
});

describe(`registration while e-mail is down (${name})`, () => {
  let api: NodeHarness;
  beforeAll(async () => {
    api = await setup();
    await api.smtp!.stop();
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  it('is refused with 503 and leaves no account behind', async () => {
    const res = await api.request('/v1/auth/register', {
      method: 'POST',
      json: { email: 'first@example.com', password: 'a long enough password' },
    });
    expect(res.status).toBe(503);
    expect((await errorOf(res)).code).toBe('unavailable');
    const login = await api.request('/v1/auth/login', {
      method: 'POST',
      json: { email: 'first@example.com', password: 'a long enough password' },
    });
    expect(login.status).toBe(401);
    expect(await (await api.request('/v1/auth/registration')).json()).toEqual({ open: true });
  });
});

describe(`password reset while e-mail is down (${name})`, () => {
  let api: NodeHarness;
  beforeAll(async () => {
    api = await setup();
    await registerOwner(api, 'owner@example.com');
    await api.smtp!.stop();
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  it('answers a password reset with 503 while SMTP is down, the same for known and unknown addresses', async () => {
    const known = await api.request('/v1/auth/password-reset', {
      method: 'POST',
      json: { email: 'owner@example.com' },
    });
    const unknown = await api.request('/v1/auth/password-reset', {
      method: 'POST',
      json: { email: 'nobody@example.com' },
    });
    expect(known.status).toBe(503);
    expect(unknown.status).toBe(503);
    expect(await known.json()).toEqual(await unknown.json());
    // Nothing half-done: no reset code was stored for the known address.
    const db = new Database(api.deps.settings.databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      expect(db.prepare('SELECT reset_code_hash FROM users WHERE email = ?').get('owner@example.com')).toEqual({
        reset_code_hash: null,
      });
    } finally {
      db.close();
    }
  });
});

describe(`invitation renewal while e-mail is down (${name})`, () => {
  let api: NodeHarness;
  beforeAll(async () => {
    api = await setup();
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  it('a renewal while SMTP is down changes nothing: the link already sent still works', async () => {
    const owner = await registerOwner(api, 'owner@example.com');
    const invited = await api.request('/v1/user/invite', {
      method: 'POST',
      token: owner.token,
      json: { email: 'invitee@example.com' },
    });
    expect(invited.status).toBe(201);
    const { invitation } = await invited.json();
    const code = api.lastCode('/accept-invite');
    await api.smtp!.stop();
    const renew = await api.request(`/v1/user/invite/${invitation.id}/renew`, { method: 'POST', token: owner.token });
    expect(renew.status).toBe(503);
    expect((await errorOf(renew)).code).toBe('unavailable');
    const listed = (await (await api.request('/v1/user/invite', { token: owner.token })).json()).items;
    expect(listed).toEqual([invitation]);
    const accepted = await api.request('/v1/auth/invitation/accept', {
      method: 'POST',
      json: { code, password: 'a long enough password' },
    });
    expect(accepted.status).toBe(201);
  });
});
