export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** SMTP (worker-mailer) on both targets, or the log mailer when SMTP_URL is unset. */
export interface Mailer {
  /** Throws DomainError('unavailable') when the message could not be handed over. */
  send(message: MailMessage): Promise<void>;
  /**
   * Resolves when a message could be handed over now (SMTP: the server
   * answers and accepts our login); throws DomainError('unavailable')
   * otherwise. Sends nothing.
   */
  check(): Promise<void>;
}
