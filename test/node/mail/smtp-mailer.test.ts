import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../../worker/src/adapters/mail/smtp.mailer.js';
import type { MailMessage } from '../../../worker/src/ports/mailer.js';
import {
  decodeHeader,
  parseMail,
  type SmtpCatcher,
  startSmtpCatcher,
  TEST_TLS_CERT,
} from '../../support/smtp-catcher.js';
import { closedPort } from '../blob/closed-port.js';

const FROM = 'CMS <no-reply@example.test>';
const message: MailMessage = {
  to: 'ada@example.test',
  subject: 'Bestätige deine E-Mail-Adresse',
  text: [
    'Hello Ada,',
    '',
    'open this link to verify your address:',
    'http://localhost:8787/verify?code=Zm9vYmFyYmF6cXV4LWxvbmctZW5vdWdoLXRvLWJlLWZvbGRlZC1ieS1xdW90ZWQtcHJpbnRhYmxl',
    '.a line that starts with a dot',
    'Grüße',
  ].join('\n'),
  html: '<p>Hello Ada,</p><p><a href="http://localhost:8787/verify?code=abc">Verify</a> — danke</p>',
};

const catchers: SmtpCatcher[] = [];
async function catcher(options?: Parameters<typeof startSmtpCatcher>[0]): Promise<SmtpCatcher> {
  const started = await startSmtpCatcher(options);
  catchers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(catchers.splice(0).map((c) => c.stop()));
});

function checkDelivered(caught: SmtpCatcher): void {
  expect(caught.messages).toHaveLength(1);
  const mail = caught.messages[0]!;
  expect(mail.envelopeFrom).toBe('no-reply@example.test');
  expect(mail.envelopeTo).toEqual(['ada@example.test']);
  const parsed = parseMail(mail.raw);
  expect(parsed.headers.get('from')).toBe('"CMS" <no-reply@example.test>');
  expect(parsed.headers.get('to')).toBe('ada@example.test');
  expect(decodeHeader(parsed.headers.get('subject') ?? '')).toBe(message.subject);
  const text = parsed.parts.find((p) => p.headers.get('content-type')?.startsWith('text/plain'));
  const html = parsed.parts.find((p) => p.headers.get('content-type')?.startsWith('text/html'));
  expect(text, 'a text/plain part').toBeDefined();
  expect(html, 'a text/html part').toBeDefined();
  expect(text!.body.replace(/\r\n/g, '\n').trimEnd()).toBe(message.text);
  expect(html!.body.replace(/\r\n/g, '\n').trimEnd()).toBe(message.html);
}

describe('SMTP mailer against smtp-server', () => {
  it('delivers a text + HTML message to a server without AUTH', async () => {
    const caught = await catcher();
    await createSmtpMailer({ url: `smtp://127.0.0.1:${caught.port}`, from: FROM }).send(message);
    checkDelivered(caught);
    expect(caught.messages[0]!.user).toBeUndefined();
  });

  it('delivers without credentials to a server that offers AUTH but does not require it', async () => {
    const caught = await catcher({ auth: { username: 'ada', password: 'secret-123', optional: true } });
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${caught.port}`, from: FROM });
    await mailer.check();
    await mailer.send(message);
    checkDelivered(caught);
    expect(caught.authAttempts).toEqual([]);
    expect(caught.messages[0]!.user).toBeUndefined();
  });

  it('still authenticates when credentials are given to a server where AUTH is optional', async () => {
    const caught = await catcher({ auth: { username: 'ada', password: 'secret-123', optional: true } });
    await createSmtpMailer({ url: `smtp://ada:secret-123@127.0.0.1:${caught.port}`, from: FROM }).send(message);
    checkDelivered(caught);
    expect(caught.authAttempts).toEqual([{ method: 'PLAIN', ok: true }]);
    expect(caught.messages[0]!.user).toBe('ada');
  });

  it('reports a server that requires AUTH, without credentials, as an authentication failure', async () => {
    const caught = await catcher({ auth: { username: 'ada', password: 'secret-123' } });
    const error = await createSmtpMailer({ url: `smtp://127.0.0.1:${caught.port}`, from: FROM })
      .send(message)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect((error as Error).message).toMatch(/authentication/i);
    expect(caught.messages).toHaveLength(0);
  });

  it('authenticates with AUTH PLAIN, percent-decoding the credentials', async () => {
    const caught = await catcher({ auth: { username: 'ada', password: 'p@ss:w/rd', methods: ['PLAIN'] } });
    await createSmtpMailer({ url: `smtp://ada:p%40ss%3Aw%2Frd@127.0.0.1:${caught.port}`, from: FROM }).send(message);
    checkDelivered(caught);
    expect(caught.authAttempts).toEqual([{ method: 'PLAIN', ok: true }]);
    expect(caught.messages[0]!.user).toBe('ada');
  });

  it('authenticates with AUTH LOGIN when that is all the server offers', async () => {
    const caught = await catcher({ auth: { username: 'ada', password: 'secret-123', methods: ['LOGIN'] } });
    await createSmtpMailer({ url: `smtp://ada:secret-123@127.0.0.1:${caught.port}`, from: FROM }).send(message);
    checkDelivered(caught);
    expect(caught.authAttempts).toEqual([{ method: 'LOGIN', ok: true }]);
  });

  it('reports wrong credentials as unavailable without leaking them', async () => {
    const caught = await catcher({ auth: { username: 'ada', password: 'right-password' } });
    const mailer = createSmtpMailer({ url: `smtp://ada:wrong-pa55word@127.0.0.1:${caught.port}`, from: FROM });
    const error = await mailer.send(message).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect((error as Error).message).toMatch(/authentication/i);
    expect((error as Error).message).not.toContain('wrong-pa55word');
    expect((error as Error).message).not.toContain(Buffer.from('\0ada\0wrong-pa55word').toString('base64'));
    expect(caught.authAttempts).toEqual([{ method: 'PLAIN', ok: false }]);
    expect(caught.messages).toHaveLength(0);
  });

  it('checks the server without sending: a live login passes, wrong credentials and a closed port are unavailable', async () => {
    const caught = await catcher({ auth: { username: 'ada', password: 'right-password' } });
    await createSmtpMailer({ url: `smtp://ada:right-password@127.0.0.1:${caught.port}`, from: FROM }).check();
    expect(caught.authAttempts).toEqual([{ method: 'PLAIN', ok: true }]);
    await expect(
      createSmtpMailer({ url: `smtp://ada:wrong@127.0.0.1:${caught.port}`, from: FROM }).check(),
    ).rejects.toMatchObject({ code: 'unavailable' });
    await expect(
      createSmtpMailer({ url: `smtp://127.0.0.1:${await closedPort()}`, from: FROM }).check(),
    ).rejects.toMatchObject({ code: 'unavailable' });
    expect(caught.messages).toHaveLength(0);
  });

  it('reports a server that is down as unavailable within a few seconds', async () => {
    const port = await closedPort();
    const started = Date.now();
    const mailer = createSmtpMailer({ url: `smtp://user:pw@127.0.0.1:${port}`, from: FROM });
    await expect(mailer.send(message)).rejects.toMatchObject({ code: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  describe('a server that accepts the connection and never answers', () => {
    let silent: Server;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      silent = createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('times out as unavailable', async () => {
      const { port } = silent.address() as AddressInfo;
      const started = Date.now();
      const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: FROM, timeoutMs: 800 });
      const error = await mailer.send(message).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'unavailable' });
      expect((error as Error).message).toMatch(/timed out/);
      expect(Date.now() - started).toBeLessThan(3000);
    });
  });

  it('refuses a recipient that could inject SMTP commands, before connecting', async () => {
    const caught = await catcher();
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${caught.port}`, from: FROM });
    for (const to of [
      'ada@example.test>\r\nRCPT TO:<eve@example.test',
      'ada@example.test\nBcc: eve@x',
      'a b@c',
      '<a@b>',
      'no-at-sign',
    ]) {
      await expect(mailer.send({ ...message, to })).rejects.toMatchObject({ code: 'invalid_request' });
    }
    expect(caught.messages).toHaveLength(0);
  });

  it('keeps a subject with line breaks on one header line', async () => {
    const caught = await catcher();
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${caught.port}`, from: FROM });
    await mailer.send({ ...message, subject: 'Hello\r\nBcc: eve@example.test' });
    const parsed = parseMail(caught.messages[0]!.raw);
    expect(parsed.headers.has('bcc')).toBe(false);
    expect(parsed.headers.get('subject')).toBe('Hello Bcc: eve@example.test');
    expect(caught.messages[0]!.envelopeTo).toEqual(['ada@example.test']);
  });

  it('refuses malformed settings at construction, naming the setting and not the password', () => {
    expect(() => createSmtpMailer({ url: 'http://mail.example.test', from: FROM })).toThrow(/SMTP_URL/);
    expect(() => createSmtpMailer({ url: 'smtp://user:hunter2@/', from: FROM })).toThrow(/SMTP_URL/);
    expect(() => createSmtpMailer({ url: 'smtp://user:hunter2@host:99999', from: FROM })).toThrow(/SMTP_URL/);
    try {
      createSmtpMailer({ url: 'smtp://user:hunter2@host:99999', from: FROM });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
    expect(() => createSmtpMailer({ url: 'smtp://host', from: 'not an address' })).toThrow(/MAIL_FROM/);
    expect(() => createSmtpMailer({ url: 'smtp://host', from: 'Evil\r\nBcc: x <a@b.c>' })).toThrow(/MAIL_FROM/);
    expect(() => createSmtpMailer({ url: 'smtps://host', from: 'bare@example.test' })).not.toThrow();
  });

  describe('over TLS', () => {
    it('refuses a server whose certificate is not trusted', async () => {
      const caught = await catcher({ tls: 'implicit' });
      const mailer = createSmtpMailer({ url: `smtps://127.0.0.1:${caught.port}`, from: FROM });
      await expect(mailer.send(message)).rejects.toMatchObject({ code: 'unavailable' });
      expect(caught.messages).toHaveLength(0);
    });

    describe('with the test certificate trusted', () => {
      const original = tls.getCACertificates('default');
      beforeAll(() => tls.setDefaultCACertificates([...original, TEST_TLS_CERT]));
      afterAll(() => tls.setDefaultCACertificates(original));

      it('delivers over implicit TLS (smtps://)', async () => {
        const caught = await catcher({ tls: 'implicit', auth: { username: 'ada', password: 'tls-secret' } });
        await createSmtpMailer({ url: `smtps://ada:tls-secret@127.0.0.1:${caught.port}`, from: FROM }).send(message);
        checkDelivered(caught);
        expect(caught.messages[0]!.secure).toBe(true);
      });

      it('upgrades smtp:// with STARTTLS when the server offers it', async () => {
        const caught = await catcher({ tls: 'starttls', auth: { username: 'ada', password: 'tls-secret' } });
        await createSmtpMailer({ url: `smtp://ada:tls-secret@localhost:${caught.port}`, from: FROM }).send(message);
        checkDelivered(caught);
        expect(caught.messages[0]!.secure).toBe(true);
      });
    });
  });
});
