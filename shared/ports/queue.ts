/** A message queue (SQS in AWS, the embedded SQS-compatible server locally). */
export interface QueueMessage {
  /** Unique within one batch; used to report failed entries. */
  id: string;
  body: unknown;
  delaySeconds?: number;
  /**
   * The tenant the message belongs to (the account): on SQS its MessageGroupId, which makes the standard queue a
   * fair queue — one tenant's backlog does not delay another's messages. Locally the stand-in serves groups in turn.
   */
  group?: string;
}
export interface Queue {
  /** Sends all messages (batched by 10, failed entries retried); throws if any still fails. */
  sendAll(queueUrl: string, messages: QueueMessage[]): Promise<void>;
}
