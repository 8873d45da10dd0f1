/**
 * `payment.created` and `payment.updated` (every status change), written in the same database
 * transaction as the change, beside the `transaction.*` events of its legs.
 */
import type { EntityManager } from '@sandbank/db';
import type { Payment } from '@sandbank/schemas';
import { uuidv7 } from '../../lib/ids.ts';
import { insertEvent } from './queries.ts';

export async function paymentEvent(
  em: EntityManager,
  e: { type: 'payment.created' | 'payment.updated'; userId: string; payment: Payment; previous?: Partial<Payment>; at: Date },
): Promise<void> {
  const payload =
    e.type === 'payment.updated' && e.previous
      ? { payment: e.payment, previous: e.previous, changes: Object.keys(e.previous) }
      : { payment: e.payment };
  await insertEvent(em, { id: uuidv7(), type: e.type, userId: e.userId, payload, at: e.at });
}
