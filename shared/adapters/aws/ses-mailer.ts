import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { Email, Mailer } from '../../ports/mailer';
import { traceClient } from '../../tracing';

/** The SES client (named imports, so a bundle keeps only the command it sends). */
export const sesClient = (region: string): SESv2Client => traceClient(new SESv2Client({ region }));

/** The Mailer port on Amazon SES (v2): one simple text + HTML email per send, from a verified address. */
export class SesMailer implements Mailer {
  constructor(
    private readonly client: SESv2Client,
    private readonly from: string,
  ) {}

  async send(email: Email): Promise<void> {
    await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [email.to] },
        Content: {
          Simple: {
            Subject: { Data: email.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: email.text, Charset: 'UTF-8' },
              Html: { Data: email.html, Charset: 'UTF-8' },
            },
          },
        },
      }),
    );
  }
}
