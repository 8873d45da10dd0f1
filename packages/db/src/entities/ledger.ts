import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.ts';

export const AccountSchema = defineEntity({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(User),
    name: p.text(),
    /** Minor units, 0 ≤ balance ≤ 10^15 (CHECKs in the database). Changed only by the simulation statement. */
    balance: p.bigint('number').default(0),
    /** How many transactions the account has; maintained by the same statement, so history needs no count(*). */
    transactionCount: p.bigint('number').default(0),
    currency: p.text().default('PLN'),
    status: p.enum(['open', 'closed'] as const).default('open'),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    closedAt: p.datetime(3).nullable(),
  },
});
export class Account extends AccountSchema.class {}
AccountSchema.setClass(Account);

export const TransactionSchema = defineEntity({
  name: 'Transaction',
  tableName: 'transactions',
  properties: {
    id: p.uuid().primary(),
    account: () => p.manyToOne(Account),
    /** The account's owner, copied at insert (accounts never change hands) for the owner-wide history index. */
    owner: () => p.manyToOne(User).name('user_id'),
    externalTxnId: p.text(),
    amount: p.bigint('number'),
    currency: p.text(),
    date: p.datetime(3),
    description: p.text(),
    raw: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
  },
});
export class Transaction extends TransactionSchema.class {}
TransactionSchema.setClass(Transaction);

/** The outbox: one row per business event, written in the same transaction as the change. */
export const EventSchema = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: {
    id: p.uuid().primary(),
    type: p.text(),
    user: () => p.manyToOne(User),
    payload: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    relayedAt: p.datetime(3).nullable(),
  },
});
export class Event extends EventSchema.class {}
EventSchema.setClass(Event);
