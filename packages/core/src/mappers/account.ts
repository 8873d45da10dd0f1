/** The one Account mapper: entity → the API's Account shape (packages/schemas). */
import type { AccountEntity } from '@sandbank/db';
import type { Account, Currency } from '@sandbank/schemas';
import { ibanOf, SANDBANK_BIC } from '../domain/accounts/iban.ts';
import { decimalText } from '../domain/currencies/convert.ts';

export const toAccount = (account: AccountEntity): Account => ({
  id: account.id,
  name: account.name,
  balance: account.balance,
  currency: account.currency as Currency,
  status: account.status,
  createdAt: account.createdAt.toISOString(),
  closedAt: account.closedAt ? account.closedAt.toISOString() : null,
  heldAmount: account.heldAmount,
  availableBalance: account.balance - account.heldAmount,
  iban: ibanOf(account.id),
  bic: SANDBANK_BIC,
  cardFxMargin: decimalText(account.cardFxMargin),
});
