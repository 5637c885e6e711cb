/**
 * SMTP_URL and MAIL_FROM, parsed once when the mailer is built (start-up), so
 * a typo stops the process with a clear message instead of failing the first
 * registration. Messages name the setting and never repeat the password.
 *
 *   smtp://user:pass@host:port    plain connection, upgraded with STARTTLS when offered
 *   smtps://user:pass@host:port   implicit TLS from the first byte
 *
 * User and password are percent-decoded (encode `@`, `:` and `/` in them).
 * Default ports: 587 for smtp (submission; Workers cannot reach port 25), 465 for smtps.
 */
export interface SmtpTarget {
  host: string;
  port: number;
  secure: boolean;
  credentials?: { username: string; password: string };
}

export interface MailAddress {
  name?: string;
  email: string;
}

export function parseSmtpUrl(url: string): SmtpTarget {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error('SMTP_URL is malformed: expected smtp://user:pass@host:port or smtps://user:pass@host:port');
  }
  const secure = parsed.protocol === 'smtps:';
  if (!secure && parsed.protocol !== 'smtp:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new Error('SMTP_URL needs a host');
  if ((parsed.pathname && parsed.pathname !== '/') || parsed.search || parsed.hash) {
    throw new Error('SMTP_URL must not have a path, query or fragment');
  }
  const port = parsed.port ? Number(parsed.port) : secure ? 465 : 587;
  const target: SmtpTarget = { host, port, secure };
  if (parsed.username || parsed.password) {
    let username: string;
    let password: string;
    try {
      username = decodeURIComponent(parsed.username);
      password = decodeURIComponent(parsed.password);
    } catch {
      throw new Error('SMTP_URL credentials are not valid percent-encoding');
    }
    if (!username) throw new Error('SMTP_URL has a password but no user name');
    target.credentials = { username, password };
  }
  return target;
}

const ADDRESS = /^[^\s<>()[\]\\,;:"@\u0000-\u001f\u007f]+@[^\s<>()[\]\\,;:"@\u0000-\u001f\u007f]+$/u;

/** A bare address safe to put into `RCPT TO:<…>` and a header: no spaces, brackets or controls. */
export function isMailAddress(value: string): boolean {
  return value.length <= 254 && ADDRESS.test(value);
}

/** `CMS <no-reply@example.com>`, `"CMS Team" <x@y>` or a bare `x@y`. */
export function parseMailFrom(value: string): MailAddress {
  const text = value.trim();
  const named = /^(?:"([^"]*)"|([^<"]*?))\s*<([^<>]+)>$/.exec(text);
  const email = named ? (named[3] ?? '').trim() : text;
  const name = named ? (named[1] ?? named[2] ?? '').trim() : '';
  if (!isMailAddress(email)) {
    throw new Error('MAIL_FROM is malformed: expected "Name <address@example.com>" or "address@example.com"');
  }
  // The name ends up inside a quoted header value; a quote, backslash or line break would break out of it.
  if (/[\u0000-\u001f\u007f"\\]/u.test(name)) {
    throw new Error('MAIL_FROM display name must not contain quotes, backslashes or control characters');
  }
  return name ? { name, email } : { email };
}
