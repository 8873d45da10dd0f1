import { ApiKeyEntity, WorkerHeartbeatEntity } from './integration.ts';
import { AccountEntity, EventEntity, TransactionEntity } from './ledger.ts';
import { RefreshTokenEntity, UserEntity } from './user.ts';
import { DeliveryAttemptEntity, DeliveryEntity, WebhookEntity } from './webhook.ts';

export { ApiKeyEntity, WorkerHeartbeatEntity } from './integration.ts';
export { AccountEntity, EventEntity, TransactionEntity } from './ledger.ts';
export { RefreshTokenEntity, UserEntity } from './user.ts';
export { DeliveryAttemptEntity, DeliveryEntity, WebhookEntity } from './webhook.ts';

export const entities = [
  UserEntity,
  RefreshTokenEntity,
  AccountEntity,
  TransactionEntity,
  EventEntity,
  WebhookEntity,
  DeliveryEntity,
  DeliveryAttemptEntity,
  ApiKeyEntity,
  WorkerHeartbeatEntity,
];
