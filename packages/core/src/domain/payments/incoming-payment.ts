/**
 * `POST /v1/simulations/incoming-payment`: money arriving from outside the world, on its scheme's
 * timing. An instant scheme credits now; Elixir and SEPA book a pending credit that posts by itself
 * when the session that carries it settles (the lifecycle's own settlement, a due item like any
 * other). The debtor is on the transaction: `merchant` is their name, `raw.counterparty` their
 * name and IBAN, with the scheme and the EndToEndId.
 */
import type { EntityManager } from '@sandbank/db';
import type { Currency, ExternalScheme } from '@sandbank/schemas';
import { AppError, notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { userNow } from '../clock/clock.ts';
import { type SimulationResult, simulateTransaction } from '../simulations/simulate-transaction.ts';
import { sessionFor } from './calendar.ts';
import { selectAccountCurrency } from './queries.ts';
import { defaultScheme, isInstant, SCHEME_CURRENCY } from './schemes.ts';

export interface IncomingPaymentParams {
  userId: string;
  accountId: string;
  amount: number;
  currency?: Currency | undefined;
  debtorName: string;
  debtorIban: string;
  scheme?: ExternalScheme | undefined;
  description?: string | undefined;
  endToEndId?: string | undefined;
}

export async function simulateIncomingPayment(em: EntityManager, p: IncomingPaymentParams): Promise<SimulationResult> {
  const accountCurrency = await selectAccountCurrency(em, p.userId, p.accountId);
  if (!accountCurrency) throw notFound('Account');
  const currency = (p.currency ?? accountCurrency) as Currency;
  const scheme = p.scheme ?? defaultScheme(currency);
  if (scheme === undefined || SCHEME_CURRENCY[scheme] !== currency) {
    throw new AppError(
      'SCHEME_UNAVAILABLE',
      scheme ? `${scheme} carries ${SCHEME_CURRENCY[scheme]}, not ${currency}` : `No scheme carries ${currency}`,
      {
        details: [{ path: scheme ? 'scheme' : 'currency', message: 'PLN: elixir or express_elixir; EUR: sepa or sepa_instant' }],
      },
    );
  }
  const instant = isInstant(scheme);
  const settleAt = instant
    ? undefined
    : sessionFor(scheme === 'elixir' ? 'elixir' : 'sepa', await userNow(em, p.userId)).settlesAt;
  return simulateTransaction(em, {
    userId: p.userId,
    accountId: p.accountId,
    amount: p.amount,
    currency: p.currency,
    description: p.description,
    status: instant ? 'posted' : 'pending',
    settleAt,
    merchant: p.debtorName,
    category: 'transfer',
    raw: {
      scheme,
      endToEndId: p.endToEndId ?? `SB${uuidv7().replaceAll('-', '')}`,
      counterparty: { name: p.debtorName, iban: p.debtorIban },
    },
  });
}
