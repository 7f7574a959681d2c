process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { SesMailer } from '../../shared/adapters/aws/ses-mailer';

const ses = mockClient(SESv2Client);
beforeEach(() => ses.reset());

describe('SesMailer', () => {
  it('sends a simple text + HTML email from the configured address', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await new SesMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@example.com').send({
      to: 'ana@example.org',
      subject: 'Confirm your email',
      text: 'Open https://api.example.com/confirm?t=abc',
      html: '<p><a href="https://api.example.com/confirm?t=abc">Confirm</a></p>',
      links: ['https://api.example.com/confirm?t=abc'],
    });
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      FromEmailAddress: 'no-reply@example.com',
      Destination: { ToAddresses: ['ana@example.org'] },
      Content: {
        Simple: {
          Subject: { Data: 'Confirm your email', Charset: 'UTF-8' },
          Body: {
            Text: { Data: 'Open https://api.example.com/confirm?t=abc', Charset: 'UTF-8' },
            Html: { Data: '<p><a href="https://api.example.com/confirm?t=abc">Confirm</a></p>', Charset: 'UTF-8' },
          },
        },
      },
    });
  });

  it('propagates a send failure', async () => {
    ses.on(SendEmailCommand).rejects(new Error('MessageRejected'));
    const mailer = new SesMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@example.com');
    await expect(mailer.send({ to: 'a@b.c', subject: 's', text: 't', html: 'h', links: [] })).rejects.toThrow('MessageRejected');
  });
});
