import type { MailMessage } from '../../ports/mailer.js';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function message(to: string, subject: string, intro: string, action: string, link: string, outro: string): MailMessage {
  return {
    to,
    subject,
    text: `${intro}\n\n${action}:\n${link}\n\n${outro}\n`,
    html:
      `<p>${escapeHtml(intro)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>` +
      `<p style="color:#555">${escapeHtml(outro)}</p>`,
  };
}

export function verificationMail(to: string, publicUrl: string, code: string): MailMessage {
  return message(
    to,
    'Confirm your e-mail address',
    'Welcome! Please confirm your e-mail address to finish creating your account.',
    'Confirm your e-mail address',
    `${publicUrl}/verify?code=${encodeURIComponent(code)}`,
    'The link is valid for 2 hours. If you did not sign up, ignore this message.',
  );
}
