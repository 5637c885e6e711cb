import type { WorkerMailer, WorkerMailerOptions } from 'worker-mailer';
import { DomainError } from '../../core/domain/errors.js';
import type { Mailer, MailMessage } from '../../ports/mailer.js';
import { isMailAddress, parseMailFrom, parseSmtpUrl } from './smtp-url.js';

/**
 * worker-mailer (with the AUTH patch of worker-mailer-auth.ts and, on Node,
 * the socket shim with node:net and node:tls) loads with the first message
 * or check, not at start-up: most requests never send mail.
 */
async function connect(options: Omit<WorkerMailerOptions, 'logLevel'>): Promise<WorkerMailer> {
  const { LogLevel, WorkerMailer } = await import('./worker-mailer-auth.js');
  return WorkerMailer.connect({ ...options, logLevel: LogLevel.NONE });
}

export interface SmtpMailerOptions {
  /** SMTP_URL: smtp://user:pass@host:port or smtps://… */
  url: string;
  /** MAIL_FROM: `Name <address>` or a bare address. */
  from: string;
  /** Connect and per-reply timeout. */
  timeoutMs?: number;
}

/**
 * SMTP through worker-mailer on both targets: `cloudflare:sockets` in
 * workerd, node-sockets.shim.ts on Node. One connection per message: mail is
 * rare here (verification, reset, invitation) and a pooled connection would
 * outlive the Worker request that opened it.
 *
 * Without credentials in SMTP_URL no AUTH is tried, even when the server
 * offers it (worker-mailer-auth.ts): a server that accepts mail without
 * authentication gets it, one that wants it refuses the message.
 */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const target = parseSmtpUrl(options.url);
  const from = parseMailFrom(options.from);
  const where = `${target.host}:${target.port}`;
  const mailerOptions: Omit<WorkerMailerOptions, 'logLevel'> = {
    host: target.host,
    port: target.port,
    secure: target.secure,
    // On smtp://, upgrade when the server offers STARTTLS.
    startTls: true,
    // worker-mailer uses this for the connect and for each reply.
    socketTimeoutMs: options.timeoutMs ?? 10_000,
  };
  if (target.credentials) {
    mailerOptions.credentials = target.credentials;
    mailerOptions.authType = ['plain', 'login', 'cram-md5'];
  }

  const unavailable = (error: unknown) =>
    // The server's address goes to the log (cause), not into the 503.
    Object.assign(new DomainError('unavailable', describeFailure(error)), { cause: new Error(`SMTP server ${where}`) });

  return {
    async check() {
      let mailer: WorkerMailer | undefined;
      try {
        // Connecting is the whole handshake: greeting, EHLO, STARTTLS, AUTH.
        mailer = await connect(mailerOptions);
      } catch (error) {
        throw unavailable(error);
      } finally {
        await mailer?.close().catch(() => undefined);
      }
    },

    async send(message: MailMessage) {
      if (!isMailAddress(message.to)) {
        throw new DomainError('invalid_request', 'Invalid e-mail recipient', [
          { path: 'to', message: 'Not a deliverable e-mail address' },
        ]);
      }
      let mailer: WorkerMailer | undefined;
      try {
        mailer = await connect(mailerOptions);
        await mailer.send({
          from,
          to: message.to,
          // A line break in a subject would start a new header.
          subject: message.subject.replace(/[\u0000-\u001f\u007f]+/gu, ' '),
          text: message.text,
          html: message.html,
        });
      } catch (error) {
        throw unavailable(error);
      } finally {
        await mailer?.close().catch(() => undefined);
      }
    },
  };
}

/**
 * A short reason for the log and the 503, built from a fixed vocabulary: the
 * raw error can quote the server's reply to AUTH, so it is never passed on.
 */
function describeFailure(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  // worker-mailer quotes replies as "…: 535 5.7.8 …"; a port number in a connect error is not one.
  const reply = /(?:^|:\s)([45]\d\d)[\s-]/.exec(raw)?.[1];
  const code = reply ? ` (reply ${reply})` : '';
  if (/auth|login|credentials/i.test(raw)) return `E-mail could not be sent: SMTP authentication failed${code}`;
  if (/timeout/i.test(raw)) return `E-mail could not be sent: the SMTP server timed out`;
  if (/^(Invalid (MAIL|RCPT)|Failed (to send DATA|send email body))/i.test(raw)) {
    return `E-mail could not be sent: the SMTP server refused the message${code}`;
  }
  if (/TLS|certificate|handshake|SSL/i.test(raw)) return `E-mail could not be sent: TLS with the SMTP server failed`;
  return `E-mail could not be sent: the SMTP server is unreachable or closed the connection${code}`;
}
