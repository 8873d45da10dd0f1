import { ApiKey, WorkerHeartbeat } from './integration.ts';
import { Account, Event, Transaction } from './ledger.ts';
import { RefreshToken, User } from './user.ts';
import { Delivery, DeliveryAttempt, Webhook } from './webhook.ts';

export { ApiKey, WorkerHeartbeat } from './integration.ts';
export { Account, Event, Transaction } from './ledger.ts';
export { RefreshToken, User } from './user.ts';
export { Delivery, DeliveryAttempt, Webhook } from './webhook.ts';

export const entities = [
  User,
  RefreshToken,
  Account,
  Transaction,
  Event,
  Webhook,
  Delivery,
  DeliveryAttempt,
  ApiKey,
  WorkerHeartbeat,
];
