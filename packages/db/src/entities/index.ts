import { ApiKeyEntity } from './integration.ts';
import { AccountEntity, EventEntity } from './ledger.ts';
import { RefreshTokenEntity, UserEntity } from './user.ts';
import { DeliveryAttemptEntity, DeliveryEntity, WebhookEntity } from './webhook.ts';

export { ApiKeyEntity } from './integration.ts';
export { AccountEntity, EventEntity } from './ledger.ts';
export { RefreshTokenEntity, UserEntity } from './user.ts';
export { DeliveryAttemptEntity, DeliveryEntity, WebhookEntity } from './webhook.ts';

export const entities = [
  UserEntity,
  RefreshTokenEntity,
  AccountEntity,
  EventEntity,
  WebhookEntity,
  DeliveryEntity,
  DeliveryAttemptEntity,
  ApiKeyEntity,
];
