/** A message queue (SQS in AWS, the embedded SQS-compatible server locally). */
export interface QueueMessage {
  /** Unique within one batch; used to report failed entries. */
  id: string;
  body: unknown;
  delaySeconds?: number;
}
export interface Queue {
  /** Sends all messages (batched by 10, failed entries retried); throws if any still fails. */
  sendAll(queueUrl: string, messages: QueueMessage[]): Promise<void>;
}
