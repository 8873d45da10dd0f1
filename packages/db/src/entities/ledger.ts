import { defineEntity, p } from '@mikro-orm/core';
import { UserEntity } from './user.ts';

const AccountDefinition = defineEntity({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(UserEntity),
    name: p.text(),
    /** Minor units, 0 ≤ balance ≤ 10^15 (CHECKs in the database). Changed only by the simulation statement. */
    balance: p.bigint('number').default(0),
    /** How many transactions the account has; maintained by the same statement, so history needs no count(*). */
    transactionCount: p.bigint('number').default(0),
    /** Σ |amount| of the account's pending debits; available = balance − held ≥ 0 (CHECK). */
    heldAmount: p.bigint('number').default(0),
    currency: p.text().default('PLN'),
    /** What a foreign card payment costs on top of the reference rate (0.02: 2 %; 0 … 0.1, CHECK), as decimal text. */
    cardFxMargin: p.decimal('string').default('0.02'),
    status: p.enum(['open', 'closed'] as const).default('open'),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    closedAt: p.datetime(3).nullable(),
  },
});
export class AccountEntity extends AccountDefinition.class {}
AccountDefinition.setClass(AccountEntity);

/** The outbox: one row per business event, written in the same transaction as the change. */
const EventDefinition = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: {
    id: p.uuid().primary(),
    type: p.text(),
    user: () => p.manyToOne(UserEntity),
    payload: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    relayedAt: p.datetime(3).nullable(),
  },
});
export class EventEntity extends EventDefinition.class {}
EventDefinition.setClass(EventEntity);
