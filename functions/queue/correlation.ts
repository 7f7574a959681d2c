import type { SQSRecord } from 'aws-lambda';
import { CORRELATION_ATTRIBUTE } from '../../shared/log';

/** The correlation id a queue message carries (set by the sender from its request), else the message id. */
export function correlationOf(record: SQSRecord): string {
  return record.messageAttributes?.[CORRELATION_ATTRIBUTE]?.stringValue ?? record.messageId;
}
