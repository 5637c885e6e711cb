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

const link = (publicUrl: string, path: string, code: string) => `${publicUrl}${path}?code=${encodeURIComponent(code)}`;

export function verificationMail(to: string, publicUrl: string, code: string): MailMessage {
  return message(
    to,
    'Confirm your e-mail address',
    'Welcome! Please confirm your e-mail address to finish creating your account.',
    'Confirm your e-mail address',
    link(publicUrl, '/verify', code),
    'The link is valid for 2 hours. If you did not sign up, ignore this message.',
  );
}

export function resetMail(to: string, publicUrl: string, code: string): MailMessage {
  return message(
    to,
    'Reset your password',
    'Someone (hopefully you) asked to reset the password of your account.',
    'Choose a new password',
    link(publicUrl, '/reset-password', code),
    'The link is valid for 1 hour and works once. If you did not ask for this, ignore this message: your password stays as it is.',
  );
}

export function invitationMail(to: string, publicUrl: string, code: string, invitedBy: string | null): MailMessage {
  return message(
    to,
    'You are invited to the CMS',
    invitedBy
      ? `${invitedBy} has invited you to help run the content management service.`
      : 'You have been invited to help run the content management service.',
    'Accept the invitation',
    link(publicUrl, '/accept-invite', code),
    'The invitation is valid for 3 days.',
  );
}
