/** An Item as the domain hands it around: the Item functions, its transactions and its notifications share it. */
export type ItemState = 'good' | 'login_required';

export interface PlaidItem {
  id: string;
  userId: string;
  accountIds: string[];
  webhookUrl: string | null;
  state: ItemState;
  createdAt: Date;
  removed: boolean;
}

/** The one institution every Item is at, and what an Item consents to: the face's wire and the console's list agree. */
export const PLAID_INSTITUTION_ID = 'ins_sandbank';
export const PLAID_CONSENTED_PRODUCTS: readonly string[] = ['transactions'];
