/** Outgoing email. SES in AWS; the local outbox (DATA_DIR/outbox) locally. */
export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The links the email carries, listed for the local outbox and tests. */
  links: string[];
}
export interface Mailer {
  send(email: Email): Promise<void>;
}
