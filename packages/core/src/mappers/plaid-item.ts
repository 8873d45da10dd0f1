/** A Plaid Item of the world, from domain/plaid's listing, in the console's shape (never its token hashes). */
import type { PlaidItemSummary } from '@sandbank/schemas';
import { PLAID_CONSENTED_PRODUCTS, PLAID_INSTITUTION_ID } from '../domain/plaid/item.ts';
import type { ListedItem } from '../domain/plaid/items.ts';

function statusOf({ item, exchanged }: ListedItem): PlaidItemSummary['status'] {
  if (item.removed) return 'removed';
  if (!exchanged) return 'awaiting_exchange';
  return item.state;
}

export const toPlaidItemSummary = (listed: ListedItem): PlaidItemSummary => {
  const status = statusOf(listed);
  return {
    id: listed.item.id,
    institutionId: PLAID_INSTITUTION_ID,
    status,
    // A removed Item answers ITEM_NOT_FOUND on the face, whatever its login state was.
    error: status === 'login_required' ? 'ITEM_LOGIN_REQUIRED' : null,
    accounts: listed.accounts,
    webhookUrl: listed.item.webhookUrl,
    webhookId: listed.webhookId,
    consentedProducts: [...PLAID_CONSENTED_PRODUCTS],
    createdAt: listed.item.createdAt.toISOString(),
    removedAt: listed.removedAt?.toISOString() ?? null,
  };
};
