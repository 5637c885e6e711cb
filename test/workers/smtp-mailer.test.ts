import { describe, expect, inject, it } from 'vitest';
import { createSmtpMailer } from '../../worker/src/adapters/mail/smtp.mailer.js';

// Inside workerd, worker-mailer talks through the real `cloudflare:sockets`.
describe('SMTP mailer in workerd', () => {
  const message = { to: 'ada@example.test', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' };

  it('reports a closed port as unavailable, quickly and without the password', async () => {
    const mailer = createSmtpMailer({
      url: 'smtp://ada:s3cret-pw@127.0.0.1:1',
      from: 'CMS <no-reply@example.test>',
      timeoutMs: 2000,
    });
    const started = Date.now();
    const error = await mailer.send(message).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'DomainError', code: 'unavailable' });
    expect((error as Error).message).not.toContain('s3cret-pw');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('delivers a multipart message to a real SMTP server', async () => {
    const mailer = createSmtpMailer({
      url: `smtp://127.0.0.1:${inject('smtpPort')}`,
      from: 'CMS <no-reply@example.test>',
      timeoutMs: 5000,
    });
    const to = `workerd-${crypto.randomUUID()}@example.test`;
    await mailer.send({ ...message, to, subject: 'Delivered from workerd' });
    const inbox = (await (await fetch(inject('smtpInboxUrl'))).json()) as { to: string[]; raw: string }[];
    const mail = inbox.find((m) => m.to.includes(to));
    expect(mail, 'the message reached the SMTP server').toBeDefined();
    expect(mail!.raw).toMatch(/^Subject: Delivered from workerd/m);
    expect(mail!.raw).toMatch(/text\/plain/);
    expect(mail!.raw).toMatch(/text\/html/);
  });

  it('delivers without credentials to a server that offers AUTH but does not require it', async () => {
    const mailer = createSmtpMailer({
      url: `smtp://127.0.0.1:${inject('smtpAuthOptionalPort')}`,
      from: 'CMS <no-reply@example.test>',
      timeoutMs: 5000,
    });
    await mailer.check();
    const to = `anonymous-${crypto.randomUUID()}@example.test`;
    await mailer.send({ ...message, to, subject: 'No AUTH needed' });
    const inbox = (await (await fetch(inject('smtpInboxUrl'))).json()) as {
      to: string[];
      raw: string;
      user: string | null;
    }[];
    const mail = inbox.find((m) => m.to.includes(to));
    expect(mail, 'the message reached the SMTP server').toBeDefined();
    expect(mail!.user).toBeNull();
    expect(mail!.raw).toMatch(/^Subject: No AUTH needed/m);
  });

  it('checks a live server without sending, and a closed port as unavailable', async () => {
    await createSmtpMailer({
      url: `smtp://127.0.0.1:${inject('smtpPort')}`,
      from: 'CMS <no-reply@example.test>',
      timeoutMs: 5000,
    }).check();
    const closed = createSmtpMailer({
      url: 'smtp://127.0.0.1:1',
      from: 'CMS <no-reply@example.test>',
      timeoutMs: 2000,
    });
    await expect(closed.check()).rejects.toMatchObject({ name: 'DomainError', code: 'unavailable' });
  });

  it('refuses an injecting recipient before opening a socket', async () => {
    const mailer = createSmtpMailer({ url: 'smtps://127.0.0.1:1', from: 'no-reply@example.test' });
    await expect(mailer.send({ ...message, to: 'a@b.test>\r\nDATA' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });
});
