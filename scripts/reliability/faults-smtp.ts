import { startTcpProxy } from '../../test/support/tcp-proxy.ts';
import { must, send } from './lib/http.ts';
import { nextCode, nodeServer, OWNER, registerOwner } from './lib/stack.ts';

/**
 * Step 4e: the mail server unreachable behind a proxy of our own: what
 * invitations, renewals and password resets answer, that nothing is left
 * half-done, and that everything works again once it is back.
 */

export interface SmtpStep {
  what: string;
  status: number | string;
  ms: number;
  ok: boolean;
  body: string;
}

export async function smtpDown(): Promise<{ steps: SmtpStep[] }> {
  const { startSmtpCatcher, parseMail } = await import('../../test/support/smtp-catcher.ts');
  const catcher = await startSmtpCatcher();
  const proxy = await startTcpProxy(catcher.port);
  const server = await nodeServer('Node + SQLite + SMTP via proxy', {
    env: { SMTP_URL: `smtp://127.0.0.1:${proxy.port}` },
  });
  const mails = () =>
    catcher.messages
      .map((m) =>
        parseMail(m.raw)
          .parts.map((p) => p.body)
          .join('\n'),
      )
      .join('\n');
  const steps: SmtpStep[] = [];
  const step = (what: string, res: { status: number | string; ms?: number; body?: Buffer }, ok: boolean) =>
    steps.push({
      what,
      status: res.status,
      ms: Math.round(res.ms ?? 0),
      ok,
      body: res.body ? res.body.toString('utf8').slice(0, 160) : '',
    });
  try {
    const token = await registerOwner(server, mails);
    const invite = (email: string) =>
      send(server.url, {
        method: 'POST',
        path: '/v1/user/invite',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email, role: 'admin' }),
      });
    type Invitation = { id: string; email: string; expiresAt: string };
    const invitations = async () =>
      (await must<{ items: Invitation[] }>(server.url, 'GET', '/v1/user/invite?limit=100', 200, { token })).items;
    const pending = async () => (await invitations()).map((i) => i.email);
    const first = await invite('first@reliability.test');
    step('invite, SMTP up', first, first.status === 201);
    const firstId: string = JSON.parse(first.body.toString('utf8')).invitation.id;
    const firstCode = await nextCode(mails, '/accept-invite');
    const firstSent = (await invitations()).find((i) => i.id === firstId);
    for (const [mode, label] of [
      ['cut', 'refused'],
      ['blackhole', 'black-holed'],
    ] as const) {
      if (mode === 'cut') proxy.cut();
      else proxy.blackhole();
      const email = `${mode}@reliability.test`;
      const res = await invite(email);
      step(`invite, SMTP ${label}`, res, res.status === 503);
      const list = await pending();
      step(
        `no invitation left for ${email}`,
        { status: list.includes(email) ? 'present' : 'absent' },
        !list.includes(email),
      );
      const renew = await send(server.url, {
        method: 'POST',
        path: `/v1/user/invite/${firstId}/renew`,
        headers: { authorization: `Bearer ${token}` },
      });
      step(`renew, SMTP ${label}`, renew, renew.status === 503);
      // The reset checks the mail server before it looks the address up: the same 503 for a known and an unknown one.
      const resetFor = (email: string) =>
        send(server.url, {
          method: 'POST',
          path: '/v1/auth/password-reset',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        });
      const known = await resetFor(OWNER.email);
      const unknown = await resetFor(`nobody-${mode}@reliability.test`);
      step(`password reset, SMTP ${label}, known address`, known, known.status === 503);
      step(
        `password reset, SMTP ${label}, unknown address: the same answer`,
        unknown,
        unknown.status === known.status && unknown.body.equals(known.body),
      );
      await proxy.restore();
    }
    // A renewal checks the mail server first: the failed ones changed nothing (same expiry, the link
    // already sent still valid); once SMTP is back a renewal replaces the link.
    const unchanged = (await invitations()).find((i) => i.id === firstId);
    step(
      'the failed renewals left the invitation as it was',
      { status: unchanged?.expiresAt === firstSent?.expiresAt ? 'unchanged' : 'changed' },
      unchanged?.expiresAt === firstSent?.expiresAt,
    );
    const renewed = await send(server.url, {
      method: 'POST',
      path: `/v1/user/invite/${firstId}/renew`,
      headers: { authorization: `Bearer ${token}` },
    });
    step('renew once SMTP is back', renewed, renewed.status === 200);
    const old = await send(server.url, {
      method: 'POST',
      path: '/v1/auth/invitation/accept',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: firstCode, password: 'reliability admin password' }),
    });
    step('the code from before the renewal is dead', old, old.status === 400);
    const fresh = await nextCode(mails, '/accept-invite', firstCode);
    const accepted = await send(server.url, {
      method: 'POST',
      path: '/v1/auth/invitation/accept',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: fresh, password: 'reliability admin password' }),
    });
    step('accept with the renewed code', accepted, accepted.status === 201);
    const again = await invite('after@reliability.test');
    step('invite after SMTP is back', again, again.status === 201);
    return { steps };
  } finally {
    await server.stop();
    await proxy.close();
    await catcher.stop();
  }
}
